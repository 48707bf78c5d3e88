package dev.ein4j.opencl.codegen;

import dev.ein4j.ir.DType;
import dev.ein4j.kernel.Kernel;
import java.util.ArrayList;
import java.util.List;

/**
 * Chooses how a reduction of O outputs of R elements each runs, and writes its launches:
 * <ul>
 *   <li>one work item per output, for short reductions, or when neighbouring outputs read
 *       neighbouring addresses (the reduced axes are not the innermost);</li>
 *   <li>one work group per output otherwise (rows reduced along their contiguous axis);</li>
 *   <li>split in two passes when the outputs are too few to occupy the device (a sum of everything,
 *       a dot product): S work groups per output each reduce a slice into a temporary of partial
 *       accumulators, then a second launch reduces the S partials of each output and stores it,
 *       epilogue included.</li>
 * </ul>
 */
final class ReductionSchedule {

    /** Reductions shorter than this run in one work item. */
    static final long SHORT_REDUCTION = 32;
    /** Reductions from which a split can pay. */
    static final long SPLIT_LENGTH = 65_536;
    /** Elements each work item reduces at least in a split's first pass. */
    static final long SPLIT_ITEM_ELEMENTS = 16;
    /** Work items per compute unit that a split of the item schedule aims for. */
    static final long ITEMS_PER_UNIT = 1024;
    /** Local memory left to the compiler when sizing scratch arrays. */
    static final long LOCAL_MEMORY_RESERVE = 1024;

    /**
     * A reduction to schedule.
     *
     * @param kernel the kernel (for the parameter list)
     * @param name the kernel function's name
     * @param header a comment line describing it (already free of sizes when parameterised)
     * @param outputs O
     * @param length R
     * @param accumulators how each value accumulates, side by side over the same elements
     * @param coalescedItems whether one item per output reads neighbouring addresses (the reduced axes are not innermost)
     * @param parts the kernel-specific pieces
     * @param reads the temporaries the reduction reads (name, C type)
     * @param readIndices their indices in the plan
     * @param resultTypes the types of the buffers the last launch writes
     * @param resultTemporaries the temporaries the last launch writes, or none for the kernel's outputs
     */
    record Job(Kernel kernel, String name, String header, long outputs, long length, List<Accumulator> accumulators,
               boolean coalescedItems, ReductionLoop.Parts parts, List<String[]> reads, int[] readIndices,
               List<CType> resultTypes, int[] resultTemporaries) {
    }

    private ReductionSchedule() {
    }

    /**
     * @param job the reduction
     * @param limits the device's limits
     * @param constants baked or parameterised numbers (shared by the launches: each one's table is a prefix of the next's)
     * @param temporaries the plan's temporaries, to which a split adds its partials
     * @return the launches, in order
     */
    static List<KernelPlan.Step> steps(Job job, DeviceLimits limits, Constants constants, List<KernelPlan.Temporary> temporaries) {
        long scratch = ReductionLoop.scratchBytes(job.accumulators());
        int groupSize = groupSize(job.outputs(), job.length(), job.coalescedItems(), scratch, limits);
        long splits = groupSize > 0 ? splits(job.outputs(), job.length(), groupSize, limits)
                : itemSplits(job.outputs(), job.length(), job.coalescedItems(), limits);
        if (splits == 1) {
            return List.of(single(job, job.outputs(), job.length(), groupSize, job.parts(), job.reads(), job.readIndices(),
                    job.resultTypes(), job.resultTemporaries(), limits, constants, ""));
        }
        List<Accumulator> accumulators = job.accumulators();
        int count = accumulators.size();
        int[] partials = new int[count];
        List<CType> partialTypes = new ArrayList<>();
        for (int j = 0; j < count; j++) {
            partials[j] = temporaries.size();
            temporaries.add(partialBuffer(accumulators.get(j).type(), job.outputs() * splits));
            partialTypes.add(accumulators.get(j).type());
        }
        long slice = (job.length() + splits - 1) / splits;
        boolean wide = job.length() > Integer.MAX_VALUE - groupSize;
        // partials[slice][output]: neighbouring items (or groups) of a pass take neighbouring outputs
        ReductionLoop.Parts first = new ReductionLoop.Parts() {
            @Override
            public void setup(SourceWriter out, String o) {
                out.line("const int so = " + o + " % " + constants.integer(job.outputs()) + ";");
                out.line("const long rbase = (long)(" + o + " / " + constants.integer(job.outputs()) + ") * " + constants.wide(slice) + ";");
                out.line("const long rtotal = " + constants.wide(job.length()) + ";");
                job.parts().setup(out, "so");
            }

            @Override
            public String guard(String r) {
                return "rbase + " + r + " < rtotal";
            }

            @Override
            public String[] elements(SourceWriter out, String r) {
                out.line("const " + (wide ? "long" : "int") + " rg = (" + (wide ? "long" : "int") + ")(rbase + " + r + ");");
                return job.parts().elements(out, "rg");
            }

            @Override
            public void finish(SourceWriter out, String o, String[] accumulated) {
                for (int j = 0; j < accumulated.length; j++) {
                    out.line(Signature.output(j) + "[" + o + "] = " + accumulated[j] + ";");
                }
            }
        };
        ReductionLoop.Parts second = new ReductionLoop.Parts() {
            @Override
            public void setup(SourceWriter out, String o) {
                job.parts().setup(out, o);
            }

            @Override
            public String[] elements(SourceWriter out, String r) {
                String[] values = new String[count];
                for (int j = 0; j < count; j++) {
                    values[j] = partialsName(j) + "[(long)" + r + " * " + constants.wide(job.outputs()) + " + o]";
                }
                return values;
            }

            @Override
            public void finish(SourceWriter out, String o, String[] accumulated) {
                job.parts().finish(out, o, accumulated);
            }
        };
        List<KernelPlan.Step> steps = new ArrayList<>();
        steps.add(single(job, job.outputs() * splits, slice, groupSize, first, job.reads(), job.readIndices(), partialTypes,
                partials, limits, constants, "split in " + splits + ", pass 1: "));
        List<String[]> reads = new ArrayList<>(job.reads());
        int[] readIndices = java.util.Arrays.copyOf(job.readIndices(), job.readIndices().length + count);
        for (int j = 0; j < count; j++) {
            reads.add(new String[] {partialsName(j), accumulators.get(j).type().cName()});
            readIndices[job.readIndices().length + j] = partials[j];
        }
        int secondGroup = groupSize(job.outputs(), splits, false, scratch, limits);
        steps.add(single(job, job.outputs(), splits, secondGroup, second, reads, readIndices, job.resultTypes(),
                job.resultTemporaries(), limits, constants, "split in " + splits + ", pass 2: "));
        return steps;
    }

    private static String partialsName(int accumulator) {
        return "partials" + accumulator;
    }

    private static KernelPlan.Step single(Job job, long outputs, long length, int groupSize, ReductionLoop.Parts parts,
                                          List<String[]> reads, int[] readIndices, List<CType> outputTypes,
                                          int[] outputTemporaries, DeviceLimits limits, Constants constants, String pass) {
        SourceWriter out = new SourceWriter().raw(Preamble.source(limits.fp64(), IndexChecks.slots(job.kernel()) > 0));
        String schedule = pass + (groupSize == 0 ? "one work item" : "one work group of " + groupSize) + " per output";
        out.line(job.header() + ", " + schedule);
        String header = "__kernel void " + job.name() + "(" + Signature.parameters(job.kernel(), outputTypes, reads, constants) + ")";
        ReductionLoop.write(out, header, outputs, length, job.accumulators(), groupSize, parts, constants);
        long[][] geometry = ReductionLoop.geometry(groupSize, outputs, limits);
        return new KernelPlan.Step(job.name(), out.toString(), geometry[0], geometry[1], outputTemporaries, readIndices,
                constants.values(), job.name().substring("ein_".length()) + " (" + schedule + ")");
    }

    /**
     * The group schedule's size, or 0 for one item per output: items when reductions are short, or
     * when at least 32 neighbouring items read neighbouring elements; groups otherwise, no larger
     * than the reduction, and small enough that every accumulator's scratch array fits local memory.
     */
    static int groupSize(long outputs, long length, boolean coalescedItems, long scratchBytes, DeviceLimits limits) {
        if (length < SHORT_REDUCTION || limits.groupSize() < 2) {
            return 0;
        }
        if (coalescedItems && outputs >= 32) {
            return 0; // at least a warp of neighbouring outputs: items read coalesced (split if too few, see itemSplits)
        }
        long wanted = Long.highestOneBit(Math.max(1, length - 1)) << 1; // the power of two at or above the length
        long size = Math.max(2, Math.min(limits.groupSize(), wanted));
        long room = limits.localMemory() - LOCAL_MEMORY_RESERVE;
        while (size > 2 && size * scratchBytes > room) {
            size /= 2;
        }
        return size * scratchBytes > room ? 0 : (int) size;
    }

    /** How many groups share each output: enough to give every compute unit a few, each item at least a few elements. */
    static long splits(long outputs, long length, int groupSize, DeviceLimits limits) {
        long units = Math.max(1, limits.computeUnits());
        if (length < SPLIT_LENGTH || outputs >= 2 * units) {
            return 1;
        }
        long wanted = (4 * units + outputs - 1) / outputs;
        long most = length / (groupSize * SPLIT_ITEM_ELEMENTS);
        return Math.max(1, Math.min(Math.min(wanted, most), 4096));
    }

    /**
     * Splits for the item schedule: when one item per output reads neighbouring addresses but the
     * outputs are too few to occupy the device (column sums of a wide matrix), each output's
     * reduction is cut into slices of at least {@value #SHORT_REDUCTION} elements, one item per
     * (slice, output), neighbouring items still on neighbouring outputs.
     */
    static long itemSplits(long outputs, long length, boolean coalescedItems, DeviceLimits limits) {
        long wantedItems = Math.max(1, limits.computeUnits()) * ITEMS_PER_UNIT;
        if (!coalescedItems || outputs >= wantedItems || length < 2 * SHORT_REDUCTION) {
            return 1;
        }
        long wanted = (wantedItems + outputs - 1) / outputs;
        return Math.max(1, Math.min(Math.min(wanted, length / SHORT_REDUCTION), 4096));
    }

    /** A temporary holding accumulators: long ones as pairs of int32, since no tensor type is 64-bit integer. */
    private static KernelPlan.Temporary partialBuffer(CType type, long count) {
        return switch (type) {
            case FLOAT -> new KernelPlan.Temporary(DType.FLOAT32, count);
            case DOUBLE -> new KernelPlan.Temporary(DType.FLOAT64, count);
            default -> new KernelPlan.Temporary(DType.INT32, 2 * count);
        };
    }
}
