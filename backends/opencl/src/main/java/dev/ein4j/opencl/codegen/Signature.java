package dev.ein4j.opencl.codegen;

import dev.ein4j.kernel.Kernel;
import java.util.ArrayList;
import java.util.List;

/**
 * The parameter list every generated kernel shares: {@code out}, then {@code in0 .. inN} (one per
 * input slot, read-only), the temporaries it reads, then the parameter table {@code p}. The output and
 * the inputs are not {@code restrict}: an in-place update passes the output as an input too (read
 * at the element written, see {@code Backend#execute}); temporaries and the table never alias.
 */
final class Signature {

    private Signature() {
    }

    /**
     * @param kernel the kernel
     * @param output the type written
     * @param temporaries the names and types of temporaries read
     * @return the parameter list, without parentheses
     */
    static String parameters(Kernel kernel, CType output, List<String[]> temporaries) {
        List<String> parameters = new ArrayList<>();
        parameters.add("__global " + output.cName() + "* out");
        for (int slot = 0; slot < kernel.inputCount(); slot++) {
            parameters.add("__global const " + CType.of(kernel.inputType(slot)).cName() + "* in" + slot);
        }
        for (String[] temporary : temporaries) {
            parameters.add("__global const " + temporary[1] + "* restrict " + temporary[0]);
        }
        parameters.add("__constant long* restrict " + Constants.TABLE);
        return String.join(", ", parameters);
    }

    /**
     * @param total work items wanted
     * @param local the work-group size
     * @param maxGroups the most groups to launch (the kernels loop over the rest)
     * @return the global size: enough whole groups for {@code total}, at most {@code maxGroups}, at least one
     */
    static long globalSize(long total, long local, long maxGroups) {
        long groups = Math.max(1, Math.min(maxGroups, (total + local - 1) / local));
        return groups * local;
    }
}
