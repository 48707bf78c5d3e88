package dev.ein4j.opencl.codegen;

import dev.ein4j.kernel.Kernel;
import java.util.ArrayList;
import java.util.List;

/**
 * The parameter list every generated kernel shares: the buffers it writes {@code out0 .. outK}
 * (the kernel's outputs, or temporaries), then {@code in0 .. inN} (one per input slot, read-only),
 * the temporaries it reads, the parameter table {@code p}, the index-error buffer when the kernel
 * has GATHER or SCATTER instructions ({@link IndexChecks}), and the launch's values
 * ({@link LaunchArguments}: one argument each, or one buffer). The outputs and the inputs are not {@code restrict}: an in-place update
 * passes an output as an input too (read at the element written, see {@code Backend#execute});
 * temporaries and the table never alias.
 */
final class Signature {

    private Signature() {
    }

    /**
     * @param kernel the kernel
     * @return the C type of each of its output buffers, in order
     */
    static List<CType> outputTypes(Kernel kernel) {
        List<CType> types = new ArrayList<>();
        for (int k = 0; k < kernel.outputCount(); k++) {
            types.add(CType.of(kernel.outputType(k)));
        }
        return types;
    }

    /**
     * @param kernel the kernel
     * @param outputs the types written, one buffer each
     * @param temporaries the names and types of temporaries read
     * @param constants where the kernel's numbers go, and how its launch values arrive
     * @return the parameter list, without parentheses
     */
    static String parameters(Kernel kernel, List<CType> outputs, List<String[]> temporaries, Constants constants) {
        List<String> parameters = new ArrayList<>();
        for (int k = 0; k < outputs.size(); k++) {
            parameters.add("__global " + outputs.get(k).cName() + "* " + output(k));
        }
        for (int slot = 0; slot < kernel.inputCount(); slot++) {
            parameters.add("__global const " + CType.of(kernel.inputType(slot)).cName() + "* in" + slot);
        }
        for (String[] temporary : temporaries) {
            parameters.add("__global const " + temporary[1] + "* restrict " + temporary[0]);
        }
        parameters.add("__constant long* restrict " + Constants.TABLE);
        if (IndexChecks.slots(kernel) > 0) {
            parameters.add("__global ulong* restrict " + IndexChecks.BUFFER);
        }
        parameters.addAll(constants.launch().declarations());
        return String.join(", ", parameters);
    }

    /**
     * @param k an output's position
     * @return the buffer's name in the kernel
     */
    static String output(int k) {
        return "out" + k;
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
