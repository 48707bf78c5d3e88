package dev.ein4j.error;

import java.util.Arrays;
import java.util.Locale;

/**
 * A tensor was used after {@code close()}, or after the end of the {@code TensorScope} it was made
 * in: its buffer may already serve another tensor, so its values are gone. The message names the
 * tensor's type and shape and what tried to use it.
 */
public class ClosedTensorException extends EinopsException {

    private static final long serialVersionUID = 1L;

    /** @param message the complete message */
    public ClosedTensorException(String message) {
        super(message);
    }

    /**
     * @param dtype the tensor's type name as numpy spells it ("float32")
     * @param shape its shape
     * @param operation what used it ("read", "mul", ...)
     * @return the exception: "tensor float32[4096, 4096] was closed; mul cannot use it (close a tensor,
     *     or end its scope, only after its last use; keep it with scope.keep(t) to use it after the scope)"
     */
    public static ClosedTensorException of(String dtype, int[] shape, String operation) {
        return new ClosedTensorException(String.format(Locale.ROOT, "tensor %s%s was closed; %s cannot use it (close a tensor, "
                + "or end its scope, only after its last use; keep it with scope.keep(t) to use it after the scope)",
                dtype, Arrays.toString(shape), operation));
    }
}
