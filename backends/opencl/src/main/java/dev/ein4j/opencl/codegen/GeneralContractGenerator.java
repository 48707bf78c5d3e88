package dev.ein4j.opencl.codegen;

import java.util.List;

/**
 * Any contraction, of any type and layout, as a reduction over K per output (b, m, n), scheduled by
 * {@link ReductionSchedule} (one work item or one work group per output, or split in two passes for
 * a few long dot products). Integer contractions accumulate in 64-bit integers. The fallback for
 * shapes the tiled GEMM does not suit (thin matrices, integer types).
 */
final class GeneralContractGenerator {

    private GeneralContractGenerator() {
    }

    /**
     * @param layout the contraction
     * @param limits the device's limits
     * @param constants baked or parameterised numbers
     * @param temporaries the temporaries the kernel reads (name, C type)
     * @param temporaryIndices their indices in the plan
     * @param planTemporaries the plan's temporaries (a split adds one)
     * @param results what the last launch writes (the kernel's output, or the product's temporary)
     * @return the launches
     */
    static List<KernelPlan.Step> generate(ContractLayout layout, DeviceLimits limits, Constants constants, List<String[]> temporaries,
                                          int[] temporaryIndices, List<KernelPlan.Temporary> planTemporaries,
                                          ContractLayout.Results results) {
        Accumulator accumulator = Accumulator.forContraction(layout.contract.dtype(), layout.leftType, layout.rightType, limits.fp64());
        ContractEpilogue epilogue = new ContractEpilogue(layout.kernel, accumulator, limits.fp64(), constants);
        long outputs = layout.batches * layout.m * layout.n;
        long length = layout.k;
        boolean baked = constants.isBaked();
        ReductionLoop.Parts parts = new ReductionLoop.Parts() {
            @Override
            public void setup(SourceWriter out, String o) {
                layout.declareSizes(out, constants);
                out.line("const int cb = " + (baked && layout.batches == 1 ? "0" : o + " / (M * N)") + ";");
                out.line("const int cm = " + (baked && layout.m == 1 ? "0" : "(" + o + " / N) % M") + ";");
                out.line("const int cn = " + (baked && layout.n == 1 ? "0" : o + " % N") + ";");
                out.line("const " + layout.leftIndexType() + " abase = " + layout.leftBase("cb", constants) + " + "
                        + layout.leftM("cm", constants) + ";");
                out.line("const " + layout.rightIndexType() + " bbase = " + layout.rightBase("cb", constants) + " + "
                        + layout.rightN("cn", constants) + ";");
                out.line("const int obase = " + layout.outBatch("cb", constants) + " + " + layout.outM("cm", constants) + " + "
                        + layout.outN("cn", constants) + ";");
            }

            @Override
            public String[] elements(SourceWriter out, String r) {
                String a = accumulator.lift(layout.leftBuffer + "[abase + " + layout.leftK(r, constants) + "]", layout.leftType);
                String b = accumulator.lift(layout.rightBuffer + "[bbase + " + layout.rightK(r, constants) + "]", layout.rightType);
                return new String[] {"(" + a + " * " + b + ")"};
            }

            @Override
            public void finish(SourceWriter out, String o, String[] accumulated) {
                epilogue.store(out, "obase", accumulated[0]);
            }
        };
        String header = "// contraction" + constants.describe(" " + layout.spec + ": " + outputs + " outputs of " + length + " products");
        // neighbouring outputs are neighbouring n; one item each reads neighbouring addresses when N is contiguous
        return ReductionSchedule.steps(new ReductionSchedule.Job(layout.kernel, "ein_contract", header, outputs, length,
                List.of(accumulator), layout.rightUnitN(), parts, temporaries, temporaryIndices, results.types(), results.temporaries()),
                limits, constants, planTemporaries);
    }
}
