package dev.ein4j.opencl.codegen;

import java.util.List;

/**
 * The skeleton shared by reduce kernels and general contractions: O outputs, each the reduction of
 * R elements, with one or more accumulators running side by side over the same elements (a batch
 * norm's sum and sum of squares in one pass). Two schedules:
 * <ul>
 *   <li><b>item</b>: one work item per output looping over its R elements (many outputs);</li>
 *   <li><b>group</b>: one work group per output, its items striding over the R elements, then a tree
 *       reduction in local memory, one scratch array per accumulator (few outputs with long reductions).</li>
 * </ul>
 * Both loop over outputs grid-stride, so any O fits a bounded launch. The parts that differ (what
 * an output's setup declares, what an element's values are, how the results are stored) come from
 * {@link Parts}.
 */
final class ReductionLoop {

    /** Writes the kernel-specific pieces. */
    interface Parts {
        /**
         * Declares what every element of output {@code o} needs (its multi-index, base positions).
         *
         * @param out where to write
         * @param o the output's flat index variable (an int)
         */
        void setup(SourceWriter out, String o);

        /**
         * Writes the statements computing one element and returns its value for each accumulator.
         *
         * @param out where to write
         * @param r the element's index variable along the reduction (an int, or a long when wide)
         * @return one expression per accumulator, of that accumulator's type
         */
        String[] elements(SourceWriter out, String r);

        /**
         * @param r the element's index variable
         * @return a condition the element must meet to be accumulated, or null for every element
         */
        default String guard(String r) {
            return null;
        }

        /**
         * Stores output {@code o} from its accumulated values (rounding them, running the epilogue).
         *
         * @param out where to write
         * @param o the output's flat index
         * @param accumulated each accumulator's variable
         */
        void finish(SourceWriter out, String o, String[] accumulated);
    }

    /** Groups launched at most. */
    static final long MAX_GROUPS = 65_536;

    private ReductionLoop() {
    }

    /**
     * @param out where to write the kernel function (after the preamble)
     * @param header the function's header: {@code __kernel void name(params)}
     * @param outputs O
     * @param length R
     * @param accumulators how each value accumulates
     * @param groupSize the work-group size for the group schedule, or 0 for the item schedule
     * @param parts the kernel-specific pieces
     * @param constants baked or parameterised numbers
     */
    static void write(SourceWriter out, String header, long outputs, long length, List<Accumulator> accumulators, int groupSize,
                      Parts parts, Constants constants) {
        boolean wide = length > Integer.MAX_VALUE - Math.max(1, groupSize);
        String counter = wide ? "long" : "int";
        String[] names = names("acc", accumulators.size());
        if (groupSize == 0) {
            out.open(header);
            declareSizes(out, outputs, length, wide, constants);
            out.open("for (long g = get_global_id(0); g < outputs; g += get_global_size(0))");
            out.line("const int o = (int)g;");
            parts.setup(out, "o");
            declareIdentities(out, accumulators, names);
            out.open("for (" + counter + " r = 0; r < length; r++)");
            accumulate(out, accumulators, names, parts);
            out.close();
            parts.finish(out, "o", names);
            out.close();
            out.close();
            return;
        }
        String[] scratch = names("scratch", accumulators.size());
        out.open("__kernel __attribute__((reqd_work_group_size(" + groupSize + ", 1, 1))) " + header.substring("__kernel ".length()));
        for (int j = 0; j < scratch.length; j++) {
            out.line("__local " + accumulators.get(j).type().cName() + " " + scratch[j] + "[" + groupSize + "];");
        }
        out.line("const int lid = (int)get_local_id(0);");
        declareSizes(out, outputs, length, wide, constants);
        out.open("for (long g = get_group_id(0); g < outputs; g += get_num_groups(0))");
        out.line("const int o = (int)g;");
        parts.setup(out, "o");
        declareIdentities(out, accumulators, names);
        out.open("for (" + counter + " r = lid; r < length; r += " + groupSize + ")");
        accumulate(out, accumulators, names, parts);
        out.close();
        for (int j = 0; j < scratch.length; j++) {
            out.line(scratch[j] + "[lid] = " + names[j] + ";");
        }
        out.line("barrier(CLK_LOCAL_MEM_FENCE);");
        out.open("for (int s = " + groupSize / 2 + "; s > 0; s >>= 1)");
        out.open("if (lid < s)");
        for (int j = 0; j < scratch.length; j++) {
            String here = scratch[j] + "[lid]";
            out.line(here + " = " + accumulators.get(j).combine(here, scratch[j] + "[lid + s]") + ";");
        }
        out.close();
        out.line("barrier(CLK_LOCAL_MEM_FENCE);");
        out.close();
        out.open("if (lid == 0)");
        String[] totals = names("total", accumulators.size());
        for (int j = 0; j < totals.length; j++) {
            out.line("const " + accumulators.get(j).type().cName() + " " + totals[j] + " = " + scratch[j] + "[0];");
        }
        parts.finish(out, "o", totals);
        out.close();
        out.line("barrier(CLK_LOCAL_MEM_FENCE); // scratch is reused by the next output");
        out.close();
        out.close();
    }

    /**
     * @param accumulators the accumulators
     * @return the local memory one work item of the group schedule uses
     */
    static long scratchBytes(List<Accumulator> accumulators) {
        long bytes = 0;
        for (Accumulator accumulator : accumulators) {
            bytes += accumulator.type().bytes();
        }
        return bytes;
    }

    private static String[] names(String prefix, int count) {
        String[] names = new String[count];
        for (int j = 0; j < count; j++) {
            names[j] = prefix + j;
        }
        return names;
    }

    private static void declareIdentities(SourceWriter out, List<Accumulator> accumulators, String[] names) {
        for (int j = 0; j < names.length; j++) {
            Accumulator accumulator = accumulators.get(j);
            out.line(accumulator.type().cName() + " " + names[j] + " = " + accumulator.identity() + ";");
        }
    }

    private static void accumulate(SourceWriter out, List<Accumulator> accumulators, String[] names, Parts parts) {
        String guard = parts.guard("r");
        if (guard != null) {
            out.open("if (" + guard + ")");
        }
        String[] values = parts.elements(out, "r");
        for (int j = 0; j < names.length; j++) {
            out.line(names[j] + " = " + accumulators.get(j).combine(names[j], values[j]) + ";");
        }
        if (guard != null) {
            out.close();
        }
    }

    private static void declareSizes(SourceWriter out, long outputs, long length, boolean wide, Constants constants) {
        out.line("const long outputs = " + constants.wide(outputs) + ";");
        out.line("const " + (wide ? "long" : "int") + " length = " + constants.number(length, wide) + ";");
    }

    /**
     * @param groupSize the group schedule's size, 0 for items
     * @param outputs O
     * @param limits the device's limits
     * @return the launch's global and local size
     */
    static long[][] geometry(int groupSize, long outputs, DeviceLimits limits) {
        if (groupSize == 0) {
            int local = Math.min(64, limits.groupSize());
            return new long[][] {{Signature.globalSize(outputs, local, MAX_GROUPS)}, {local}};
        }
        return new long[][] {{Math.max(1, Math.min(outputs, MAX_GROUPS)) * groupSize}, {groupSize}};
    }
}
