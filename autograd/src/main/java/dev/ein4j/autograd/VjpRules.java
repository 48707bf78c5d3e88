package dev.ein4j.autograd;

import static dev.ein4j.tensor.internal.TensorInternals.broadcastTo;
import static dev.ein4j.tensor.internal.TensorInternals.contract;
import static dev.ein4j.tensor.internal.TensorInternals.reduce;
import static dev.ein4j.tensor.internal.TensorInternals.wrap;

import dev.ein4j.ir.AxesArgument;
import dev.ein4j.ir.GatherArgument;
import dev.ein4j.ir.ScatterArgument;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.PadArgument;
import dev.ein4j.ir.PermuteArgument;
import dev.ein4j.ir.ShrinkArgument;
import dev.ein4j.ir.WindowArgument;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The vector-Jacobian rule of every IR primitive, in one table. Given a node y = op(x…) and the
 * cotangent g = ∂L/∂y, a rule returns ∂L/∂xᵢ for the sources on a path to the inputs. Rules emit
 * plain IR through the Tensor API, so a gradient is a lazy graph that any backend runs and that can
 * be differentiated again.
 *
 * <p>Cotangents may come back larger than their source (EXPAND passes g through unchanged):
 * broadcasting is undone in one place, {@link GradientWalk}'s accumulation, which sums a cotangent
 * down to its target's shape.
 */
final class VjpRules {

    private VjpRules() {
    }

    /**
     * @param node a node
     * @return whether gradients flow through it: its op is differentiable ({@link Op#isDifferentiable},
     *         the one declaration) and its type is floating
     */
    static boolean passesGradient(Node node) {
        return node.op().isDifferentiable() && node.dtype().isFloating();
    }

    /**
     * @param y the node
     * @param g ∂L/∂y, y's shape
     * @param needs whether a source needs a gradient
     * @param singleUse whether a node is read by one node on the paths (y, for y's sources) and is not a
     *     node differentiated with respect to: a rule may then send past it to its sources
     * @return the contributions to y's sources
     */
    static List<Contribution> apply(Node y, Tensor g, Predicate<Node> needs, Predicate<Node> singleUse) {
        List<Contribution> out = new ArrayList<>();
        Tensor self = wrap(y);
        Tensor x = y.sourceCount() > 0 ? wrap(y.source(0)) : null;
        Tensor z = y.sourceCount() > 1 ? wrap(y.source(1)) : null;
        boolean ruled = switch (y.op()) { // no default: a new primitive does not compile until it has a rule
            // ---- movement: each undoes itself
            case RESHAPE -> {
                send(out, needs, y, 0, g.reshape(x.shape()));
                yield true;
            }
            case PERMUTE -> {
                send(out, needs, y, 0, g.permute(((PermuteArgument) y.argument()).inverse()));
                yield true;
            }
            case EXPAND, CONTIGUOUS -> {
                send(out, needs, y, 0, g); // EXPAND: summed down on accumulation
                yield true;
            }
            case PAD -> {
                PadArgument pad = (PadArgument) y.argument();
                int[] ends = x.shape();
                for (int k = 0; k < ends.length; k++) {
                    ends[k] += pad.before()[k];
                }
                send(out, needs, y, 0, g.shrink(pad.before(), ends));
                yield true;
            }
            case SHRINK -> {
                ShrinkArgument box = (ShrinkArgument) y.argument();
                int[] after = x.shape();
                for (int k = 0; k < after.length; k++) {
                    after[k] -= box.ends()[k];
                }
                send(out, needs, y, 0, g.pad(box.starts(), after, 0.0));
                yield true;
            }
            case FLIP -> {
                send(out, needs, y, 0, g.flip(((AxesArgument) y.argument()).axes()));
                yield true;
            }
            case WINDOW -> {
                send(out, needs, y, 0, WindowGradient.overlapAdd(g, (WindowArgument) y.argument(), x.shape()));
                yield true;
            }
            // ---- unary
            case EXP -> {
                send(out, needs, y, 0, g.mul(self));
                yield true;
            }
            case LOG -> {
                send(out, needs, y, 0, g.div(x));
                yield true;
            }
            case SQRT -> {
                send(out, needs, y, 0, g.mul(0.5).div(self));
                yield true;
            }
            case RECIPROCAL -> {
                send(out, needs, y, 0, g.mul(self).mul(self).neg());
                yield true;
            }
            case SIN -> {
                send(out, needs, y, 0, g.mul(x.cos()));
                yield true;
            }
            case CAST -> {
                send(out, needs, y, 0, g.cast(x.dtype()));
                yield true;
            }
            // ---- binary and ternary
            case ADD -> {
                send(out, needs, y, 0, g);
                send(out, needs, y, 1, g);
                yield true;
            }
            case MUL -> {
                send(out, needs, y, 0, g.mul(z));
                send(out, needs, y, 1, g.mul(x));
                yield true;
            }
            case MAX -> { // ties split evenly between the two operands
                Tensor tie = x.eq(z).cast(g.dtype()).mul(0.5);
                send(out, needs, y, 0, g.mul(z.lt(x).cast(g.dtype()).add(tie)));
                send(out, needs, y, 1, g.mul(x.lt(z).cast(g.dtype()).add(tie)));
                yield true;
            }
            case WHERE -> {
                Tensor zero = Tensor.zeros(g.dtype(), g.shape());
                send(out, needs, y, 1, Tensor.where(x, g, zero));
                send(out, needs, y, 2, Tensor.where(x, zero, g));
                yield true;
            }
            // ---- reductions (reduced axes are kept as length 1, so g broadcasts back)
            case SUM -> {
                send(out, needs, y, 0, broadcastTo(g, x.shape()));
                yield true;
            }
            case REDUCE_MAX -> { // ties split evenly, as PyTorch's amax
                int[] axes = ((AxesArgument) y.argument()).axes();
                Tensor winners = x.eq(broadcastTo(self, x.shape())).cast(x.dtype());
                Tensor count = reduce(winners, Op.SUM, axes);
                send(out, needs, y, 0, broadcastTo(g.div(count), x.shape()).mul(winners));
                yield true;
            }
            case PROD -> {
                send(out, needs, y, 0, broadcastTo(g, x.shape()).mul(ProductOfOthers.of(x, ((AxesArgument) y.argument()).axes())));
                yield true;
            }
            case CONTRACT -> { // g has length 1 on the contracted axes: spreading it undoes the sum
                Tensor spread = broadcastTo(g, x.shape());
                contractSide(out, needs, singleUse, y, 0, g, spread, z);
                contractSide(out, needs, singleUse, y, 1, g, spread, x);
                yield true;
            }
            // ---- indexing: a gather's gradient adds back where it read; a scatter's is gathered from where it wrote
            case GATHER -> {
                GatherArgument gather = (GatherArgument) y.argument();
                send(out, needs, y, 0, TensorInternals.apply(Op.SCATTER, g.dtype(), x.shape(), new ScatterArgument(gather.axis(), true),
                        Tensor.zeros(g.dtype(), x.shape()), z, g));
                yield true;
            }
            case SCATTER -> {
                ScatterArgument scatter = (ScatterArgument) y.argument();
                Tensor index = z;
                Tensor source = wrap(y.source(2));
                if (scatter.accumulate()) {
                    send(out, needs, y, 0, g);
                } else { // written over: the base's old values there get nothing
                    send(out, needs, y, 0, TensorInternals.apply(Op.SCATTER, g.dtype(), g.shape(), scatter, g, index,
                            Tensor.zeros(g.dtype(), source.shape())));
                }
                send(out, needs, y, 2, TensorInternals.apply(Op.GATHER, g.dtype(), index.shape(), new GatherArgument(scatter.axis()),
                        g, index));
                yield true;
            }
            // gradients stop here (Op.isDifferentiable() is false): comparisons, creation, leaves, DETACH
            case CMPLT, CMPEQ, CONST, IOTA, RAND, INPUT, DETACH -> {
                yield false;
            }
        };
        if (!ruled && !out.isEmpty()) {
            throw new IllegalStateException(y.op() + " passes no gradient but gave contributions");
        }
        return out;
    }

    /**
     * ∂L/∂a = g·b (g spread over the contracted axes). When a is an EXPAND used only here, the sum
     * over its expanded axes is folded into a second CONTRACT and sent straight to EXPAND's source,
     * so no product of the full broadcast shape is materialised (a matmul's gradient is two matmuls).
     */
    private static void contractSide(List<Contribution> out, Predicate<Node> needs, Predicate<Node> singleUse,
                                     Node y, int side, Tensor g, Tensor spread, Tensor other) {
        Node source = y.source(side);
        if (!needs.test(source)) {
            return;
        }
        Contribution windowed = WindowedContraction.gradient(y, side, g, singleUse);
        if (windowed != null) { // a convolution's input: a transposed convolution, no im2col-sized buffer
            out.add(windowed);
            return;
        }
        if (source.op() == Op.EXPAND && singleUse.test(source) && needs.test(source.source(0))) {
            int[] small = source.source(0).shape();
            int[] full = source.shape();
            int[] expanded = java.util.stream.IntStream.range(0, full.length)
                    .filter(k -> small[k] == 1 && full[k] != 1).toArray();
            out.add(new Contribution(source.source(0), contract(spread, other, expanded)));
            return;
        }
        out.add(new Contribution(source, spread.mul(other)));
    }

    private static void send(List<Contribution> out, Predicate<Node> needs, Node y, int index, Tensor cotangent) {
        Node source = y.source(index);
        if (needs.test(source)) {
            out.add(new Contribution(source, cotangent));
        }
    }
}
