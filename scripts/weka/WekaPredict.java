// Golden-file generator: full-precision Weka 3.6.14 regression predictions.
//
// Build:  javac -cp /usr/share/java/weka.jar -d build scripts/weka/WekaPredict.java
// Usage:
//   java -cp /usr/share/java/weka.jar:build WekaPredict predict <classifier> "<options>" <train> <test> <out>
//       Builds <classifier> (with <options>) on <train>, then calls classifyInstance on each
//       instance of <test> IN FILE ORDER and writes one Double.toString(prediction) per line.
//   java -cp /usr/share/java/weka.jar:build WekaPredict cv <classifier> "<options>" <data> <folds> <seed> <out>
//       Replays weka.classifiers.Evaluation.crossValidateModel (Weka 3.6.14), i.e. what the
//       command line "-t data -x folds -s seed" does:
//         data = new Instances(data); Random rand = new Random(seed); data.randomize(rand);
//         if (class nominal) data.stratify(folds);
//         for i in 0..folds-1:
//           train = data.trainCV(folds, i, rand);   // NB: trainCV(.., rand) also randomizes train
//           copy  = Classifier.makeCopy(classifier); copy.buildClassifier(train);
//           test  = data.testCV(folds, i);           // classified in order
//       Writes CSV "row,fold,predicted", row = 0-based index of the instance in <data>
//       (recovered by replaying randomize on an index list with a fresh Random(seed), and
//       verified by comparing attribute values), fold = 0-based fold number.
// Files ending in .csv are read with weka.core.converters.CSVLoader, others with ArffLoader.
// The class attribute is always the last attribute.
import java.io.*;
import java.util.*;
import weka.classifiers.Classifier;
import weka.core.*;
import weka.core.converters.*;

public class WekaPredict {
    static Instances load(String path) throws Exception {
        AbstractFileLoader loader = path.endsWith(".csv") ? new CSVLoader() : new ArffLoader();
        loader.setSource(new File(path));
        Instances d = loader.getDataSet();
        d.setClassIndex(d.numAttributes() - 1);
        return d;
    }

    static Classifier make(String cls, String opts) throws Exception {
        return Classifier.forName(cls, Utils.splitOptions(opts));
    }

    static boolean same(Instance a, Instance b) {
        if (a.numAttributes() != b.numAttributes()) return false;
        for (int j = 0; j < a.numAttributes(); j++) {
            boolean ma = a.isMissing(j), mb = b.isMissing(j);
            if (ma != mb) return false;
            if (!ma && Double.doubleToLongBits(a.value(j)) != Double.doubleToLongBits(b.value(j))) return false;
        }
        return true;
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        if (mode.equals("predict")) {
            Classifier c = make(args[1], args[2]);
            Instances train = load(args[3]);
            Instances test = load(args[4]);
            if (!train.equalHeaders(test)) throw new Exception("train/test headers differ");
            c.buildClassifier(train);
            try (PrintWriter w = new PrintWriter(new FileWriter(args[5]))) {
                for (int i = 0; i < test.numInstances(); i++) {
                    w.println(Double.toString(c.classifyInstance(test.instance(i))));
                }
            }
        } else if (mode.equals("cv")) {
            Classifier proto = make(args[1], args[2]);
            Instances orig = load(args[3]);
            int folds = Integer.parseInt(args[4]);
            long seed = Long.parseLong(args[5]);
            // permutation: replay Instances.randomize on an index list
            int n = orig.numInstances();
            int[] perm = new int[n];
            for (int i = 0; i < n; i++) perm[i] = i;
            Random pr = new Random(seed);
            for (int j = n - 1; j > 0; j--) { int k = pr.nextInt(j + 1); int t = perm[j]; perm[j] = perm[k]; perm[k] = t; }

            Instances data = new Instances(orig);
            Random rand = new Random(seed);
            data.randomize(rand);
            if (data.classAttribute().isNominal()) throw new Exception("regression only (stratify not replayed)");
            for (int i = 0; i < n; i++)
                if (!same(data.instance(i), orig.instance(perm[i]))) throw new Exception("permutation replay mismatch at " + i);
            try (PrintWriter w = new PrintWriter(new FileWriter(args[6]))) {
                w.println("row,fold,predicted");
                int pos = 0;
                for (int f = 0; f < folds; f++) {
                    Instances train = data.trainCV(folds, f, rand);
                    Classifier c = Classifier.makeCopy(proto);
                    c.buildClassifier(train);
                    Instances test = data.testCV(folds, f);
                    for (int i = 0; i < test.numInstances(); i++) {
                        if (!same(test.instance(i), orig.instance(perm[pos]))) throw new Exception("fold position mismatch");
                        w.println(perm[pos] + "," + f + "," + Double.toString(c.classifyInstance(test.instance(i))));
                        pos++;
                    }
                }
                if (pos != n) throw new Exception("fold sizes do not add up");
            }
        } else if (mode.equals("version")) {
            System.out.println(Version.VERSION);
        } else {
            throw new Exception("unknown mode " + mode);
        }
    }
}
