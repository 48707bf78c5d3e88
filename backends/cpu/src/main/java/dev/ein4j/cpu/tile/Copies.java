package dev.ein4j.cpu.tile;

import dev.ein4j.cpu.WorkerPool;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.Shapes;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import java.util.Arrays;
import java.util.List;

/**
 * Kernels that only move data: one float load through a view (a pad, a slice, a broadcast, a
 * transpose, a window), written straight into the output row by row. The tile path would gather
 * each row into a tile and then store the tile: two passes and a dispatch per row, which on the
 * short rows of images (14 to 28 elements between masks) cost about 1.8 ns per element, three times
 * a copy's memory traffic (cnn-step's padded cotangent and pooled-gradient broadcast).
 *
 * <p>The space is merged and reordered as for the tile path ({@link Space}), the output being one of
 * its accesses; each row is then filled with the view's pad value outside its mask and copied inside
 * it (one array copy where both sides are unit stride, one fill where the input is broadcast).
 * A transpose, whose rows are strided on one side and contiguous along an outer dimension there,
 * is copied in tiles instead ({@link TransposedCopy}).
 */
public final class Copies {

    private final WorkerPool pool;

    /** @param pool the workers rows are spread over */
    public Copies(WorkerPool pool) {
        this.pool = pool;
    }

    /** @return whether the kernel is a single float load (and so runs here) */
    public static boolean supports(Kernel kernel) {
        if (kernel.kind() != Kernel.Kind.ELEMENTWISE || kernel.size() != 1 || kernel.outputIndices().length != 1) {
            return false;
        }
        Instruction load = kernel.instruction(0);
        return load.op() == Op.INPUT && load.view() != null && kernel.inputType(load.input()) == load.dtype()
                && (load.dtype() == DType.FLOAT32 || load.dtype() == DType.FLOAT64);
    }

    /**
     * @param kernel a kernel {@link #supports} accepts
     * @param output its output, row-major over the kernel's shape
     * @param inputs its inputs
     */
    public void run(Kernel kernel, HostData output, List<HostData> inputs) {
        Instruction load = kernel.instruction(0);
        int[] shape = kernel.outputShape();
        if (Shapes.size(shape) == 0) {
            return;
        }
        int[] iteration = shape.length == 0 ? new int[] {1} : shape;
        View view = load.view();
        HostData input = inputs.get(load.input());
        List<long[]> outputStrides = List.of(Shapes.contiguousStrides(iteration));
        Space space = Space.of(iteration, List.of(view), outputStrides, true);
        // a space without patterned rows is the plain one already; only a patterned one is asked again
        Space plain = space.accesses.get(0).patterned() ? Space.plain(iteration, List.of(view), outputStrides, true) : space;
        TransposedCopy tiled = TransposedCopy.of(plain, load.dtype() == DType.FLOAT32 ? Float.BYTES : Double.BYTES);
        if (tiled != null) {
            tiled.run(input, output, pool);
            return;
        }
        int tasks = RowWalk.tasks(space, pool);
        long rows = space.rows();
        int length = space.rowLength();
        // rows too few to share out are cut into pieces
        int piecesPerRow = (int) Math.max(1, Math.min(length, (tasks * 4L + rows - 1) / rows));
        int piece = (length + piecesPerRow - 1) / piecesPerRow;
        long units = rows * piecesPerRow;
        pool.parallelFor(tasks, task -> copy(space, input, output, units * task / tasks, units * (task + 1) / tasks,
                piecesPerRow, piece));
    }

    /** Copies units [from, to) (piece {@code unit % piecesPerRow} of row {@code unit / piecesPerRow}). */
    private static void copy(Space space, HostData input, HostData output, long from, long to, int piecesPerRow,
                             int piece) {
        if (from >= to) {
            return;
        }
        Space.Access source = space.accesses.get(0);
        Space.Access target = space.accesses.get(1);
        int last = space.shape.length - 1;
        int length = space.rowLength();
        long sourceStride = source.strides()[last];
        long targetStride = target.strides()[last];
        int maskFrom = source.masked() ? Math.min(length, source.maskStart()[last]) : 0;
        int maskTo = source.masked() ? Math.max(maskFrom, Math.min(length, source.maskEnd()[last])) : length;
        int[] outer = new int[space.outerRank()];
        long row = from / piecesPerRow;
        long remainder = row;
        for (int k = outer.length - 1; k >= 0; k--) {
            outer[k] = (int) (remainder % space.shape[k]);
            remainder /= space.shape[k];
        }
        long[] sourceCarry = carries(space, source);
        long[] targetCarry = carries(space, target);
        long sourceBase = base(source, outer);
        long targetBase = base(target, outer);
        for (long unit = from; unit < to; unit++) {
            long unitRow = piecesPerRow == 1 ? unit : unit / piecesPerRow;
            if (unitRow != row) {
                // the next row (units are consecutive): an odometer step, the bases moved by its carry
                int k = outer.length - 1;
                while (k > 0 && outer[k] == space.shape[k] - 1) {
                    outer[k--] = 0;
                }
                outer[k]++;
                sourceBase += sourceCarry[k];
                targetBase += targetCarry[k];
                row = unitRow;
            }
            int start = piecesPerRow == 1 ? 0 : (int) (unit % piecesPerRow) * piece;
            int end = Math.min(length, start + piece);
            if (!source.inside(outer)) {
                fill(output, targetBase, targetStride, start, end, source.pad());
                continue;
            }
            int copyFrom = Math.max(start, maskFrom);
            int copyTo = Math.max(copyFrom, Math.min(end, maskTo));
            fill(output, targetBase, targetStride, start, Math.min(end, copyFrom), source.pad());
            fill(output, targetBase, targetStride, Math.max(start, copyTo), end, source.pad());
            if (copyFrom < copyTo && source.patterned()) { // unmasked along its row (RowPatterns)
                movePattern(input, sourceBase, source.pattern(), output, targetBase, targetStride, copyFrom, copyTo);
            } else if (copyFrom < copyTo) {
                move(input, sourceBase + copyFrom * sourceStride, sourceStride, output, targetBase + copyFrom * targetStride,
                        targetStride, copyTo - copyFrom);
            }
        }
    }

    /**
     * @return per outer dimension k, how far the access's base moves when dimension k advances and
     *     every dimension after it wraps to 0
     */
    private static long[] carries(Space space, Space.Access access) {
        int outer = space.outerRank();
        long[] strides = access.strides();
        long[] carry = new long[outer];
        long wrapped = 0;
        for (int k = outer - 1; k >= 0; k--) {
            carry[k] = strides[k] - wrapped;
            wrapped += (space.shape[k] - 1L) * strides[k];
        }
        return carry;
    }

    private static long base(Space.Access access, int[] outer) {
        long base = access.offset();
        long[] strides = access.strides();
        for (int k = 0; k < outer.length; k++) {
            base += outer[k] * strides[k];
        }
        return base;
    }

    /** output[base + j · stride] = value for j in [from, to). */
    private static void fill(HostData output, long base, long stride, int from, int to, double value) {
        if (from >= to) {
            return;
        }
        int at = (int) (base + from * stride);
        int step = (int) stride;
        if (output instanceof HostData.Float32 f) {
            float[] a = f.values();
            float v = (float) value;
            if (step == 1) {
                Arrays.fill(a, at, at + (to - from), v);
            } else {
                for (int j = from; j < to; j++, at += step) {
                    a[at] = v;
                }
            }
        } else {
            double[] a = ((HostData.Float64) output).values();
            if (step == 1) {
                Arrays.fill(a, at, at + (to - from), value);
            } else {
                for (int j = from; j < to; j++, at += step) {
                    a[at] = value;
                }
            }
        }
    }

    /** target[t + j · targetStride] = source[s + pattern[j]] for j in [from, to). */
    private static void movePattern(HostData source, long s, int[] pattern, HostData target, long t, long targetStride,
                                    int from, int to) {
        int base = (int) s;
        int at = (int) (t + from * targetStride);
        int step = (int) targetStride;
        if (source instanceof HostData.Float32 f) {
            float[] x = f.values();
            float[] y = ((HostData.Float32) target).values();
            for (int j = from; j < to; j++, at += step) {
                y[at] = x[base + pattern[j]];
            }
        } else {
            double[] x = ((HostData.Float64) source).values();
            double[] y = ((HostData.Float64) target).values();
            for (int j = from; j < to; j++, at += step) {
                y[at] = x[base + pattern[j]];
            }
        }
    }

    /** target[t + j · targetStride] = source[s + j · sourceStride] for j below count. */
    private static void move(HostData source, long s, long sourceStride, HostData target, long t, long targetStride,
                             int count) {
        int from = (int) s;
        int to = (int) t;
        int sourceStep = (int) sourceStride;
        int targetStep = (int) targetStride;
        if (source instanceof HostData.Float32 f) {
            float[] x = f.values();
            float[] y = ((HostData.Float32) target).values();
            if (sourceStep == 1 && targetStep == 1) {
                System.arraycopy(x, from, y, to, count);
            } else if (sourceStep == 0 && targetStep == 1) {
                Arrays.fill(y, to, to + count, x[from]);
            } else {
                for (int j = 0; j < count; j++, from += sourceStep, to += targetStep) {
                    y[to] = x[from];
                }
            }
        } else {
            double[] x = ((HostData.Float64) source).values();
            double[] y = ((HostData.Float64) target).values();
            if (sourceStep == 1 && targetStep == 1) {
                System.arraycopy(x, from, y, to, count);
            } else if (sourceStep == 0 && targetStep == 1) {
                Arrays.fill(y, to, to + count, x[from]);
            } else {
                for (int j = 0; j < count; j++, from += sourceStep, to += targetStep) {
                    y[to] = x[from];
                }
            }
        }
    }
}
