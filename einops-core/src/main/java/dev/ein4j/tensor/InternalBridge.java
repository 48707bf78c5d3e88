package dev.ein4j.tensor;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.OpArgument;
import dev.ein4j.tensor.internal.TensorInternals;

/** The tensor package's side of {@link TensorInternals}. */
final class InternalBridge implements TensorInternals.Bridge {

    @Override
    public Node node(Tensor tensor) {
        return tensor.node();
    }

    @Override
    public Tensor wrap(Node node) {
        return Tensor.wrap(node);
    }

    @Override
    public Tensor apply(Op op, DType dtype, int[] shape, OpArgument argument, Tensor... sources) {
        return Ops.apply(op, dtype, shape, argument, sources);
    }

    @Override
    public Tensor reduce(Tensor tensor, Op op, int[] axes) {
        return Ops.reduce(tensor, op, axes);
    }

    @Override
    public Tensor contract(Tensor left, Tensor right, int[] axes) {
        return Ops.contract(left, right, axes);
    }

    @Override
    public Tensor broadcastTo(Tensor tensor, int[] shape) {
        return Ops.broadcastTo(tensor, shape);
    }

    @Override
    public void setGradient(Tensor leaf, Tensor gradient) {
        leaf.setGrad(gradient);
    }

    @Override
    public Tensor uniformOnce(Generator generator, DType dtype, int[] shape) {
        return Creation.rand(generator, dtype, shape);
    }
}
