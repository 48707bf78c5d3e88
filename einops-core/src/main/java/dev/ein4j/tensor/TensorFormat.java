package dev.ein4j.tensor;

import dev.ein4j.ir.DType;
import java.util.Locale;

/** numpy-like printing: nested brackets, aligned columns, a shared number format, "..." past 1000 elements. */
final class TensorFormat {

    private static final int SUMMARY_THRESHOLD = 1000;
    private static final int EDGE = 3;

    private TensorFormat() {
    }

    static String format(double[] values, int[] shape, DType dtype) {
        boolean summarize = values.length > SUMMARY_THRESHOLD;
        String[] text = new String[values.length];
        boolean integral = true;
        double largest = 0;
        double smallest = Double.MAX_VALUE;
        for (double value : values) {
            if (Double.isFinite(value)) {
                integral &= value == Math.rint(value);
                largest = Math.max(largest, Math.abs(value));
                if (value != 0) {
                    smallest = Math.min(smallest, Math.abs(value));
                }
            }
        }
        boolean scientific = largest >= 1e8 || smallest < 1e-4 && !integral;
        int width = 0;
        for (int i = 0; i < values.length; i++) {
            text[i] = switch (dtype) {
                case BOOL -> values[i] != 0 ? "True" : "False";
                case INT32 -> Long.toString((long) values[i]);
                default -> number(values[i], integral, scientific);
            };
            width = Math.max(width, text[i].length());
        }
        StringBuilder out = new StringBuilder("tensor(");
        if (shape.length == 0) {
            out.append(text.length == 0 ? "" : text[0]);
        } else {
            append(out, text, shape, 0, 0, width, summarize, "tensor(".length());
        }
        return out.append(", dtype=").append(dtype.numpyName()).append(')').toString();
    }

    private static String number(double value, boolean integral, boolean scientific) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (scientific) {
            return String.format(Locale.ROOT, "%.4e", value);
        }
        if (integral) {
            return String.format(Locale.ROOT, "%.0f.", value);
        }
        return String.format(Locale.ROOT, "%.4f", value);
    }

    private static int append(StringBuilder out, String[] text, int[] shape, int axis, int start, int width,
                              boolean summarize, int indent) {
        int length = shape[axis];
        int block = 1;
        for (int k = axis + 1; k < shape.length; k++) {
            block *= shape[k];
        }
        out.append('[');
        for (int i = 0; i < length; i++) {
            if (summarize && length > 2 * EDGE && i == EDGE) {
                out.append(axis == shape.length - 1 ? "..., " : "...,\n" + " ".repeat(indent + axis + 1));
                i = length - EDGE;
            }
            if (axis == shape.length - 1) {
                String value = text[start + i * block];
                out.append(" ".repeat(width - value.length())).append(value);
            } else {
                append(out, text, shape, axis + 1, start + i * block, width, summarize, indent);
            }
            if (i < length - 1) {
                out.append(axis == shape.length - 1 ? ", " : ",\n" + "\n".repeat(Math.max(0, shape.length - axis - 2))
                        + " ".repeat(indent + axis + 1));
            }
        }
        out.append(']');
        return start;
    }
}
