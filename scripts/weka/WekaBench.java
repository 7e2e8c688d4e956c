// Timing harness for `advise bench models`: Weka 3.6.14's fit + predict time, data loading
// excluded, so it compares with advise's in-memory fit + predict.
//
// Build:  javac -cp /usr/share/java/weka.jar -d build scripts/weka/WekaBench.java
// Usage:  java -cp /usr/share/java/weka.jar:build WekaBench <classifier> "<options>" <train> <test> <reps>
//   Loads <train> and <test> (CSVLoader for .csv, ArffLoader otherwise; class = last attribute),
//   then <reps> times: Classifier.forName(...), buildClassifier(train), classifyInstance on every
//   test instance in order. Prints one line: the minimum and the first wall time in seconds,
//   "min_s first_s" (the first run includes the JIT warm-up).
import java.io.File;
import weka.classifiers.Classifier;
import weka.core.Instances;
import weka.core.Utils;
import weka.core.converters.AbstractFileLoader;
import weka.core.converters.ArffLoader;
import weka.core.converters.CSVLoader;

public class WekaBench {
    static Instances load(String path) throws Exception {
        AbstractFileLoader loader = path.endsWith(".csv") ? new CSVLoader() : new ArffLoader();
        loader.setSource(new File(path));
        Instances d = loader.getDataSet();
        d.setClassIndex(d.numAttributes() - 1);
        return d;
    }

    public static void main(String[] args) throws Exception {
        Instances train = load(args[2]);
        Instances test = load(args[3]);
        int reps = Integer.parseInt(args[4]);
        double min = Double.MAX_VALUE, first = 0, sink = 0;
        for (int r = 0; r < reps; r++) {
            long t0 = System.nanoTime();
            Classifier c = Classifier.forName(args[0], Utils.splitOptions(args[1]));
            c.buildClassifier(train);
            for (int i = 0; i < test.numInstances(); i++) sink += c.classifyInstance(test.instance(i));
            double s = (System.nanoTime() - t0) / 1e9;
            if (r == 0) first = s;
            min = Math.min(min, s);
        }
        System.out.println(min + " " + first);
        if (Double.isNaN(sink)) System.err.println("NaN prediction");
    }
}
