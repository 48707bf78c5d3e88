package dev.ein4j.opencl.codegen;

import java.util.List;

/**
 * Float and double contractions as a tiled GEMM: a work group of 16×16 items computes a 64×64 tile
 * of the output, each item a 4×4 block of it held in registers; operand tiles of 64×16 pass through
 * local memory (padded to 65 columns against bank conflicts), each loaded along whichever of its
 * axes is contiguous in the operand's buffer so that neighbouring items read neighbouring
 * addresses. Operands are read through their views (group offsets baked in), partial tiles are
 * padded with zeros, and the epilogue runs on each result as it is stored (with replicated axes,
 * only the product is stored, into a temporary, for a later launch's epilogue). Batches and row tiles
 * are looped grid-stride, so no grid dimension passes the 65 535 groups some drivers allow.
 */
final class TiledGemmGenerator {

    static final int TILE = 64;
    static final int DEPTH = 16;
    static final int ITEMS = 16;
    static final int PER_ITEM = TILE / ITEMS;
    static final int PADDED = TILE + 1;
    static final long MAX_GRID = 65_535;

    private TiledGemmGenerator() {
    }

    /**
     * @param layout the contraction
     * @param limits the device's limits
     * @return whether the tiled kernel suits it: floating sums, both sides at least half a tile,
     *         and a device that runs 256-item groups with room for the tiles
     */
    static boolean suits(ContractLayout layout, DeviceLimits limits) {
        Accumulator accumulator = Accumulator.forContraction(layout.contract.dtype(), layout.leftType, layout.rightType, limits.fp64());
        long tileBytes = 2L * DEPTH * PADDED * accumulator.type().bytes();
        return accumulator.type().isFloating() && layout.m >= TILE / 2 && layout.n >= TILE / 2 && layout.k >= 1
                && limits.maxWorkGroupSize() >= (long) ITEMS * ITEMS && limits.localMemory() >= tileBytes + 1024;
    }

    /**
     * @param layout the contraction
     * @param limits the device's limits
     * @param constants baked or parameterised numbers
     * @param temporaries the temporaries the kernel reads (name, C type)
     * @param temporaryIndices their indices in the plan
     * @param results what the launch writes (the kernel's output, or the product's temporary)
     * @return the launch
     */
    static KernelPlan.Step generate(ContractLayout layout, DeviceLimits limits, Constants constants, List<String[]> temporaries,
                                    int[] temporaryIndices, ContractLayout.Results results) {
        Accumulator accumulator = Accumulator.forContraction(layout.contract.dtype(), layout.leftType, layout.rightType, limits.fp64());
        ContractEpilogue epilogue = new ContractEpilogue(layout.kernel, accumulator, limits.fp64(), constants);
        String a = accumulator.type().cName();
        String zero = CExpressions.literal(accumulator.type(), 0.0);
        long rowTiles = (layout.m + TILE - 1) / TILE;
        long columnTiles = (layout.n + TILE - 1) / TILE;
        SourceWriter out = new SourceWriter().raw(Preamble.source(limits.fp64(), IndexChecks.slots(layout.kernel) > 0));
        out.line("// contraction" + constants.describe(" " + layout.spec) + ": tiled GEMM, " + TILE + "x" + TILE + " tiles, " + PER_ITEM + "x" + PER_ITEM
                + " outputs per item");
        out.open("__kernel __attribute__((reqd_work_group_size(" + ITEMS + ", " + ITEMS + ", 1))) void ein_gemm("
                + Signature.parameters(layout.kernel, results.types(), temporaries, constants) + ")");
        out.line("__local " + a + " as[" + DEPTH + "][" + PADDED + "];");
        out.line("__local " + a + " bs[" + DEPTH + "][" + PADDED + "];");
        out.line("const int tx = (int)get_local_id(0);");
        out.line("const int ty = (int)get_local_id(1);");
        out.line("const int tid = ty * " + ITEMS + " + tx;");
        out.line("const int n0 = (int)get_group_id(0) * " + TILE + ";");
        layout.declareSizes(out, constants);
        out.line("const int rowTiles = (M + " + (TILE - 1) + ") / " + TILE + ";");
        out.open("for (int cb = (int)get_group_id(2); cb < B; cb += (int)get_num_groups(2))");
        out.line("const " + layout.leftIndexType() + " abase = " + layout.leftBase("cb", constants) + ";");
        out.line("const " + layout.rightIndexType() + " bbase = " + layout.rightBase("cb", constants) + ";");
        out.line("const int obase = " + layout.outBatch("cb", constants) + ";");
        out.open("for (int mt = (int)get_group_id(1); mt < rowTiles; mt += (int)get_num_groups(1))");
        out.line("const int m0 = mt * " + TILE + ";");
        for (int i = 0; i < PER_ITEM; i++) {
            for (int j = 0; j < PER_ITEM; j++) {
                out.line(a + " c" + i + j + " = " + zero + ";");
            }
        }
        out.open("for (int k0 = 0; k0 < K; k0 += " + DEPTH + ")");
        loadTiles(out, layout, accumulator, zero, constants);
        out.line("barrier(CLK_LOCAL_MEM_FENCE);");
        out.open("for (int kk = 0; kk < " + DEPTH + "; kk++)");
        for (int i = 0; i < PER_ITEM; i++) {
            out.line("const " + a + " a" + i + " = as[kk][ty + " + i * ITEMS + "];");
        }
        for (int j = 0; j < PER_ITEM; j++) {
            out.line("const " + a + " b" + j + " = bs[kk][tx + " + j * ITEMS + "];");
        }
        boolean fused = accumulator.type() == CType.DOUBLE || limits.fma();
        for (int i = 0; i < PER_ITEM; i++) {
            for (int j = 0; j < PER_ITEM; j++) {
                String c = "c" + i + j;
                out.line(c + " = " + (fused ? "fma(a" + i + ", b" + j + ", " + c + ")" : c + " + a" + i + " * b" + j) + ";");
            }
        }
        out.close();
        out.line("barrier(CLK_LOCAL_MEM_FENCE);");
        out.close();
        for (int i = 0; i < PER_ITEM; i++) {
            for (int j = 0; j < PER_ITEM; j++) {
                out.open("");
                out.line("const int cm = m0 + ty + " + i * ITEMS + ";");
                out.line("const int cn = n0 + tx + " + j * ITEMS + ";");
                out.open("if (cm < M && cn < N)");
                epilogue.store(out, "obase + " + layout.outM("cm", constants) + " + " + layout.outN("cn", constants), "c" + i + j);
                out.close();
                out.close();
            }
        }
        out.close();
        out.close();
        out.close();
        long[] local = {ITEMS, ITEMS, 1};
        long[] global = {columnTiles * ITEMS, Math.min(rowTiles, MAX_GRID) * ITEMS, Math.min(layout.batches, MAX_GRID)};
        return new KernelPlan.Step("ein_gemm", out.toString(), global, local, results.temporaries(), temporaryIndices, constants.values(),
                "contract (tiled gemm)");
    }

    /** Each item loads 4 elements of each 64×16 operand tile, zero outside the matrix. */
    private static void loadTiles(SourceWriter out, ContractLayout layout, Accumulator accumulator, String zero, Constants c) {
        int perItem = TILE * DEPTH / (ITEMS * ITEMS);
        out.open("for (int l = 0; l < " + perItem + "; l++)");
        out.line("const int e = tid + l * " + ITEMS * ITEMS + ";");
        // left tile as[k][m]: along K when K is contiguous in the buffer, else along M
        out.line("const int ak = " + (layout.leftUnitK() ? "e % " + DEPTH : "e / " + TILE) + ";");
        out.line("const int am = " + (layout.leftUnitK() ? "e / " + DEPTH : "e % " + TILE) + ";");
        out.line("const int lm = m0 + am;");
        out.line("const int lk = k0 + ak;");
        out.line("as[ak][am] = (lm < M && lk < K) ? "
                + accumulator.lift(layout.leftBuffer + "[abase + " + layout.leftM("lm", c) + " + " + layout.leftK("lk", c) + "]",
                        layout.leftType) + " : " + zero + ";");
        // right tile bs[k][n]: along N when N is contiguous, else along K
        out.line("const int bn = " + (layout.rightUnitN() ? "e % " + TILE : "e / " + DEPTH) + ";");
        out.line("const int bk = " + (layout.rightUnitN() ? "e / " + TILE : "e % " + DEPTH) + ";");
        out.line("const int rn = n0 + bn;");
        out.line("const int rk = k0 + bk;");
        out.line("bs[bk][bn] = (rn < N && rk < K) ? "
                + accumulator.lift(layout.rightBuffer + "[bbase + " + layout.rightK("rk", c) + " + " + layout.rightN("rn", c) + "]",
                        layout.rightType) + " : " + zero + ";");
        out.close();
    }
}
