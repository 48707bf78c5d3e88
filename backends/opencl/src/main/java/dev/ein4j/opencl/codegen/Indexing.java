package dev.ein4j.opencl.codegen;

import dev.ein4j.ir.View;
import java.util.ArrayList;
import java.util.List;

/**
 * Index arithmetic baked into generated source: splitting a flat index into a multi-index (every
 * length a constant, so divisions become multiplications), a view's buffer position and mask test,
 * and the offsets of a contraction's merged dimension groups. Arithmetic is 32-bit unless a bound
 * computed here says a position may pass 2^31 − 1; then it is 64-bit.
 */
final class Indexing {

    private Indexing() {
    }

    /**
     * Declares one int per axis holding the multi-index of a flat index, row-major.
     *
     * @param out where to write
     * @param flat the flat index expression (an int, or a long when {@code wide})
     * @param wide whether the flat index may exceed 2^31 − 1
     * @param lengths the axes' lengths
     * @param names one variable name per axis
     * @param scratch a name for the running quotient, unique in the scope
     * @param constants where the lengths go
     * @return each axis' index expression: its variable, or "0" for a length-1 axis
     */
    static String[] unflatten(SourceWriter out, String flat, boolean wide, int[] lengths, String[] names, String scratch,
                              Constants constants) {
        String[] axes = new String[lengths.length];
        List<Integer> real = new ArrayList<>();
        for (int k = 0; k < lengths.length; k++) {
            if (lengths[k] == 1 && constants.isBaked()) {
                axes[k] = "0";
            } else {
                real.add(k);
            }
        }
        if (real.isEmpty()) {
            return axes;
        }
        if (real.size() == 1) {
            int k = real.get(0);
            out.line("const int " + names[k] + " = (int)(" + flat + ");");
            axes[k] = names[k];
            return axes;
        }
        out.line((wide ? "long " : "int ") + scratch + " = " + flat + ";");
        for (int j = real.size() - 1; j >= 0; j--) {
            int k = real.get(j);
            axes[k] = names[k];
            if (j == 0) {
                out.line("const int " + names[k] + " = (int)" + scratch + ";");
            } else {
                String length = constants.integer(lengths[k]);
                out.line("const int " + names[k] + " = (int)(" + scratch + " % " + length + "); " + scratch + " /= " + length + ";");
            }
        }
        return axes;
    }

    /**
     * @param view a view
     * @return the largest |position| it can produce, saturating at Long.MAX_VALUE
     */
    static long positionBound(View view) {
        long bound = Math.abs(view.offset());
        for (int k = 0; k < view.rank(); k++) {
            bound = saturatingAdd(bound, saturatingMultiply(Math.max(0, view.length(k) - 1), Math.abs(view.stride(k))));
        }
        return bound;
    }

    /**
     * @param view a view
     * @param axes index expressions, one per axis
     * @param constants where strides and the offset go
     * @return the buffer position of element {@code axes}: {@code offset + Σ index·stride}
     */
    static String position(View view, String[] axes, Constants constants) {
        boolean wide = positionBound(view) > Integer.MAX_VALUE;
        List<String> terms = new ArrayList<>();
        for (int k = 0; k < view.rank(); k++) {
            boolean used = view.length(k) > 1 && view.stride(k) != 0 && !"0".equals(axes[k]);
            if (used || !constants.isBaked()) {
                terms.add(term(axes[k], view.stride(k), wide, constants));
            }
        }
        if (view.offset() != 0 || terms.isEmpty() || !constants.isBaked()) {
            terms.add(constants.number(view.offset(), wide));
        }
        return "(" + String.join(" + ", terms) + ")";
    }

    /**
     * A gather's buffer position: the view's position with coordinate {@code axis} replaced by an index.
     *
     * @param view the gather's view (no mask)
     * @param axes index expressions, one per axis
     * @param axis the gathered axis
     * @param index the index expression (an int in [0, length))
     * @param length the buffer's length along the axis
     * @param constants where strides and the offset go
     * @return {@code offset + Σ_{k≠axis} axes[k]·stride[k] + index·stride[axis]}
     */
    static String gatherPosition(View view, String[] axes, int axis, String index, long length, Constants constants) {
        long bound = saturatingAdd(Math.abs(view.offset()), saturatingMultiply(Math.max(0, length - 1), Math.abs(view.stride(axis))));
        for (int k = 0; k < view.rank(); k++) {
            if (k != axis) {
                bound = saturatingAdd(bound, saturatingMultiply(Math.max(0, view.length(k) - 1), Math.abs(view.stride(k))));
            }
        }
        boolean wide = bound > Integer.MAX_VALUE;
        List<String> terms = new ArrayList<>();
        for (int k = 0; k < view.rank(); k++) {
            boolean used = k == axis || view.length(k) > 1 && view.stride(k) != 0 && !"0".equals(axes[k]);
            if (used || !constants.isBaked()) {
                terms.add(term(k == axis ? index : axes[k], view.stride(k), wide, constants));
            }
        }
        if (view.offset() != 0 || terms.isEmpty() || !constants.isBaked()) {
            terms.add(constants.number(view.offset(), wide));
        }
        return "(" + String.join(" + ", terms) + ")";
    }

    /**
     * @param view a view
     * @param axes index expressions
     * @param constants where the bounds go
     * @return a condition that holds where the view reads its buffer, "1" without a mask, "0" when fully padded
     */
    static String maskCondition(View view, String[] axes, Constants constants) {
        if (!view.hasMask()) {
            return "1";
        }
        int[] start = view.maskStart();
        int[] end = view.maskEnd();
        List<String> tests = new ArrayList<>();
        if (!constants.isBaked()) {
            for (int k = 0; k < view.rank(); k++) {
                tests.add(axes[k] + " >= " + constants.integer(start[k]));
                tests.add(axes[k] + " < " + constants.integer(end[k]));
            }
            return tests.isEmpty() ? "1" : "(" + String.join(" && ", tests) + ")";
        }
        for (int k = 0; k < view.rank(); k++) {
            if (start[k] >= end[k]) {
                return "0";
            }
            if ("0".equals(axes[k])) { // a length-1 axis: decided here
                if (start[k] > 0 || end[k] <= 0) {
                    return "0";
                }
                continue;
            }
            if (start[k] > 0) {
                tests.add(axes[k] + " >= " + start[k]);
            }
            if (end[k] < view.length(k)) {
                tests.add(axes[k] + " < " + end[k]);
            }
        }
        return tests.isEmpty() ? "1" : "(" + String.join(" && ", tests) + ")";
    }

    /**
     * The offset of a combined index into a group of merged dimensions (a contraction's batch, M, N or K).
     *
     * @param index the combined index expression (an int)
     * @param lengths the merged lengths
     * @param strides their strides
     * @param wide whether to compute in 64 bits
     * @param constants where lengths and strides go
     * @return {@code Σ index_d · strides[d]} with index_d the row-major digits of {@code index}
     */
    static String groupOffset(String index, int[] lengths, long[] strides, boolean wide, Constants constants) {
        List<String> terms = new ArrayList<>();
        long inner = 1;
        boolean baked = constants.isBaked();
        for (int d = lengths.length - 1; d >= 0; d--) {
            if (!baked || lengths[d] > 1 && strides[d] != 0) {
                String digit = index;
                if (baked ? inner > 1 : d < lengths.length - 1) {
                    digit = "(" + digit + " / " + constants.integer(inner) + ")";
                }
                if (d > 0) {
                    digit = "(" + digit + " % " + constants.integer(lengths[d]) + ")";
                }
                terms.add(term(digit, strides[d], wide, constants));
            }
            inner *= lengths[d];
        }
        return terms.isEmpty() ? "0" : "(" + String.join(" + ", terms) + ")";
    }

    /**
     * @param lengths merged lengths
     * @param strides their strides
     * @return the largest |offset| the group produces
     */
    static long groupBound(int[] lengths, long[] strides) {
        long bound = 0;
        for (int d = 0; d < lengths.length; d++) {
            bound = saturatingAdd(bound, saturatingMultiply(Math.max(0, lengths[d] - 1), Math.abs(strides[d])));
        }
        return bound;
    }

    private static String term(String index, long stride, boolean wide, Constants constants) {
        if (!constants.isBaked()) {
            return wide ? "(long)" + index + " * " + constants.wide(stride) : index + " * " + constants.integer(stride);
        }
        if (wide) {
            return stride == 1 ? "(long)" + index : "(long)" + index + " * " + CExpressions.longLiteral(stride);
        }
        return stride == 1 ? index : index + " * " + CExpressions.intLiteral((int) stride);
    }

    static long saturatingAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    static long saturatingMultiply(long a, long b) {
        return b != 0 && a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
    }
}
