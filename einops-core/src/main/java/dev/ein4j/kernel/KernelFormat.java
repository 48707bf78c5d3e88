package dev.ein4j.kernel;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.View;
import java.util.Arrays;

/** Short printed forms used by kernel listings. */
public final class KernelFormat {

    private KernelFormat() {
    }

    static String type(DType dtype) {
        return switch (dtype) {
            case FLOAT32 -> "f32";
            case FLOAT64 -> "f64";
            case INT32 -> "i32";
            case BOOL -> "bool";
        };
    }

    static String shape(int[] shape) {
        return Arrays.toString(shape).replace(" ", "");
    }

    static String view(View view) {
        String text = shape(view.shape()) + ":" + Arrays.toString(view.strides()).replace(" ", "").replace('[', '(')
                .replace(']', ')') + "+" + view.offset();
        if (view.hasMask()) {
            text += " mask " + shape(view.maskStart()) + ".." + shape(view.maskEnd()) + " pad " + number(view.padValue());
        }
        return text;
    }

    /**
     * @param value a number
     * @return it as kernels print it (integers without a fraction)
     */
    public static String number(double value) {
        return value == Math.rint(value) && !Double.isInfinite(value) && Math.abs(value) < 1e15
                ? Long.toString((long) value) + (value == 0 && 1 / value < 0 ? " (-0)" : "") : Double.toString(value);
    }
}
