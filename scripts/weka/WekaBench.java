// Timing harness for `advise bench models`: Weka 3.6.14's fit + predict time, data loading
// excluded, so it compares with advise's in-memory fit + predict.
//
// Build:  javac -cp /usr/share/java/weka.jar -d build scripts/weka/WekaBench.java
// Usage:  java -cp /usr/share/java/weka.jar:build WekaBench <classifier> "<options>" <train> <test> <reps> [<seconds>]
//   Loads <train> and <test> (CSVLoader for .csv, ArffLoader otherwise; class = last attribute),
//   then runs Classifier.forName(...), buildClassifier(train), classifyInstance on every test
//   instance in order, at least <reps> times and until <seconds> (default 0) have passed, at
//   most 1000 times, so that the JIT has compiled the hot code before the best run is taken
//   (M5P at 192 x 250: best of 5 runs 0.048-0.052 s, of 50 or more 0.033-0.034 s). Prints one
//   line, times in seconds: "min_s first_s median_s runs", the median over the later half of
//   the runs (the first includes the JIT's warm-up).
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
        double seconds = args.length > 5 ? Double.parseDouble(args[5]) : 0;
        double min = Double.MAX_VALUE, first = 0, sink = 0, spent = 0;
        java.util.ArrayList<Double> times = new java.util.ArrayList<>();
        for (int r = 0; r < 1000 && (r < reps || spent < seconds); r++) {
            long t0 = System.nanoTime();
            Classifier c = Classifier.forName(args[0], Utils.splitOptions(args[1]));
            c.buildClassifier(train);
            for (int i = 0; i < test.numInstances(); i++) sink += c.classifyInstance(test.instance(i));
            double s = (System.nanoTime() - t0) / 1e9;
            if (r == 0) first = s;
            min = Math.min(min, s);
            spent += s;
            times.add(s);
        }
        java.util.List<Double> late = new java.util.ArrayList<>(times.subList(times.size() / 2, times.size()));
        java.util.Collections.sort(late);
        double median = late.get(late.size() / 2);
        System.out.println(min + " " + first + " " + median + " " + times.size());
        if (Double.isNaN(sink)) System.err.println("NaN prediction");
    }
}
