package dev.ein4j.nn;

/** Window terms of patterns: {@code (s*h + d*kh)} with the factors of 1 left out. */
final class WindowTerms {

    private WindowTerms() {
    }

    /**
     * @param name the output axis; the kernel axis is {@code k + name}
     * @param stride the step between output positions
     * @param dilation the step between kernel elements
     * @return e.g. {@code (2*h + kh)}, {@code (h + 3*kh)}, {@code (h + kh)}
     */
    static String term(String name, int stride, int dilation) {
        return "(" + factor(stride) + name + " + " + factor(dilation) + "k" + name + ")";
    }

    private static String factor(int value) {
        return value == 1 ? "" : value + "*";
    }
}
