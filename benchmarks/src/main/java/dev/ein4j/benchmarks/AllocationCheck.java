package dev.ein4j.benchmarks;

import dev.ein4j.backend.Backends;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.function.Supplier;

/**
 * Checks that a rearrange which a strided view can express allocates no buffer when realized, and
 * that one which cannot allocates exactly one (the copy). Runs on the {@code counting} backend and
 * exits with status 1 if a count differs from the expected one.
 *
 * <pre>
 * java -cp benchmarks/target/ein4j-benchmarks.jar dev.ein4j.benchmarks.AllocationCheck
 * </pre>
 */
public final class AllocationCheck {

    private AllocationCheck() {
    }

    /**
     * @param args ignored
     */
    public static void main(String[] args) {
        System.out.println("backends available: " + Backends.available() + ", default: " + Backends.current().name());
        Backends.use(CountingBackend.NAME);

        Tensor images = Tensor.rand(new Generator(1), 2, 3, 4, 4).realize();       // b c h w, contiguous
        Tensor tokens = Tensor.rand(new Generator(2), 2, 16, 3).realize();         // b (h w) c, contiguous
        Tensor channelsLast = images.rearrange("b c h w -> b h w c").realize(); // a permuted view

        boolean ok = true;
        ok &= check("\"b c h w -> b h w c\" of a contiguous [2, 3, 4, 4]", 0,
                () -> images.rearrange("b c h w -> b h w c").realize());
        ok &= check("\"b (h w) c -> b h w c\" of a contiguous [2, 16, 3], h=4", 0,
                () -> tokens.rearrange("b (h w) c -> b h w c", Axes.of("h", 4)).realize());
        ok &= check("\"b h w c -> b (h w c)\" of the permuted view [2, 4, 4, 3]", 1,
                () -> channelsLast.rearrange("b h w c -> b (h w c)").realize());
        ok &= check("\"b c h w -> b h w c\" then \"b h w c -> b (h w c)\" in one realization", 1,
                () -> images.rearrange("b c h w -> b h w c").rearrange("b h w c -> b (h w c)").realize());
        System.out.println(ok ? "OK" : "FAILED");
        if (!ok) {
            System.exit(1);
        }
    }

    private static boolean check(String what, long expected, Supplier<Tensor> realize) {
        CountingBackend.reset();
        Tensor result = realize.get();
        long allocations = CountingBackend.allocations();
        long elements = CountingBackend.allocatedElements();
        boolean ok = allocations == expected;
        System.out.printf("%-75s buffers allocated: %d (%d elements), expected %d  %s%n", what, allocations, elements,
                expected, ok ? "ok" : "UNEXPECTED");
        if (dev.ein4j.runtime.Results.get(dev.ein4j.tensor.internal.TensorInternals.node(result)) == null) {
            throw new IllegalStateException("not realized: " + what);
        }
        return ok;
    }
}
