// Prints new DecimalFormat("#.##").format(x) for each x given as raw IEEE 754
// bits in hex, one per line, to refresh decimal2_jdk17.tsv:
//
//	grep -v '^#' decimal2_jdk17.tsv | cut -f1 | java -Duser.language=en -Duser.country=US Decimal2Vectors.java
//
// (then put the header comment back). Not part of the build.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.text.DecimalFormat;

public class Decimal2Vectors {
  public static void main(String[] args) throws Exception {
    DecimalFormat df = new DecimalFormat("#.##");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    for (String line; (line = in.readLine()) != null; ) {
      double x = Double.longBitsToDouble(Long.parseUnsignedLong(line.trim(), 16));
      System.out.println(line.trim() + "\t" + df.format(x));
    }
  }
}
