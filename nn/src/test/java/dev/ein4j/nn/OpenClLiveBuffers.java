package dev.ein4j.nn;

import dev.ein4j.opencl.OpenClBuffer;
import dev.ein4j.tensor.Tensor;

/** Counts the {@code cl_mem} objects that tensors still hold on the opencl backend, once those nobody holds are collected. */
final class OpenClLiveBuffers {

    private OpenClLiveBuffers() {
    }

    /**
     * Tensors nobody closes free their buffers when collected and their cleaner has run: collect,
     * use the runtime once (realize something small), give the cleaner a moment, give back what the
     * backend pools for reuse (how much it pools follows how many buffers each collection freed at
     * once), and take the lowest of five such counts.
     *
     * @param any a tensor on the opencl backend, to realize something with
     * @return the live {@code cl_mem} objects, none pooled
     */
    static long afterCollection(Tensor any) {
        long live = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 5; attempt++) {
            System.gc();
            any.sum().item();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            dev.ein4j.backend.Backends.get("opencl").trim();
            live = Math.min(live, OpenClBuffer.liveCount());
        }
        return live;
    }
}
