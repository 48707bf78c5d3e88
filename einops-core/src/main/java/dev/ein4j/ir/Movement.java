package dev.ein4j.ir;

/**
 * Movement primitives applied to views: the one place that maps a movement node to the view it
 * makes of its source's view.
 */
public final class Movement {

    private Movement() {
    }

    /**
     * @param node a movement node (RESHAPE, PERMUTE, EXPAND, PAD, SHRINK or FLIP)
     * @param view the view its source is read through
     * @return the view the node is read through, or null when one strided view cannot express it
     */
    public static View apply(Node node, View view) {
        Object argument = node.argument();
        return switch (node.op()) {
            case RESHAPE -> view.reshape(node.shape());
            case PERMUTE -> view.permute(((PermuteArgument) argument).order());
            case EXPAND -> view.expand(node.shape());
            case PAD -> view.pad(((PadArgument) argument).before(), ((PadArgument) argument).after(),
                    ((PadArgument) argument).fill());
            case SHRINK -> view.shrink(((ShrinkArgument) argument).starts(), ((ShrinkArgument) argument).ends());
            case WINDOW -> view.window((WindowArgument) argument);
            case FLIP -> {
                boolean[] flipped = new boolean[view.rank()];
                for (int axis : ((AxesArgument) argument).axes()) {
                    flipped[axis] = true;
                }
                yield view.flip(flipped);
            }
            case EXP, LOG, SQRT, RECIPROCAL, SIN, CAST, ADD, MUL, MAX, CMPLT, CMPEQ, WHERE, SUM, REDUCE_MAX, PROD, CONTRACT,
                    GATHER, SCATTER, CONST, IOTA, RAND, INPUT, CONTIGUOUS, DETACH ->
                    throw new IllegalArgumentException(node.op() + " is not a movement primitive");
        };
    }
}
