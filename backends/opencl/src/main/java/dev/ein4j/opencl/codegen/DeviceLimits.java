package dev.ein4j.opencl.codegen;

/**
 * What code generation needs to know about the device.
 *
 * @param fp64 whether double is available
 * @param fma whether float fused multiply-add is done in hardware (used by the tiled GEMM)
 * @param maxWorkGroupSize the largest work group a generated kernel may ask for
 * @param localMemory bytes of local memory per work group
 * @param computeUnits compute units, to size grids
 * @param maxParameterBytes CL_DEVICE_MAX_PARAMETER_SIZE: the bytes of arguments a kernel may take
 * @param int64Atomics whether cl_khr_int64_extended_atomics is available (index errors are recorded with a 64-bit minimum)
 */
public record DeviceLimits(boolean fp64, boolean fma, long maxWorkGroupSize, long localMemory, int computeUnits,
                           long maxParameterBytes, boolean int64Atomics) {

    /**
     * @param size a smaller work-group limit (what a compiled kernel reports it can run)
     * @return these limits with that work-group size
     */
    public DeviceLimits withMaxWorkGroupSize(long size) {
        return new DeviceLimits(fp64, fma, size, localMemory, computeUnits, maxParameterBytes, int64Atomics);
    }

    /** @return the largest power of two, at most 256, that a work group may have */
    int groupSize() {
        long size = Math.min(256, Math.max(1, maxWorkGroupSize));
        return Integer.highestOneBit((int) size);
    }
}
