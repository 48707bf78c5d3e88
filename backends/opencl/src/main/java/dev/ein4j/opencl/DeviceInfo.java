package dev.ein4j.opencl;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.jocl.CL;
import org.jocl.Pointer;
import org.jocl.cl_device_id;
import org.jocl.cl_platform_id;

/**
 * What the backend needs to know about one OpenCL device, read once when devices are listed: its
 * names, its kind, whether it has float64, its memory, and the limits that shape generated code
 * (largest allocation, work-group size, local memory, bytes of kernel arguments).
 *
 * @param platform the platform handle
 * @param device the device handle
 * @param platformIndex the platform's position in {@code clGetPlatformIDs}
 * @param deviceIndex the device's position among its platform's devices
 * @param platformName CL_PLATFORM_NAME
 * @param deviceName CL_DEVICE_NAME
 * @param type CL_DEVICE_TYPE bits
 * @param version CL_DEVICE_VERSION
 * @param fp64 whether the device reports cl_khr_fp64
 * @param maxAllocation CL_DEVICE_MAX_MEM_ALLOC_SIZE in bytes
 * @param globalMemory CL_DEVICE_GLOBAL_MEM_SIZE in bytes
 * @param maxWorkGroupSize CL_DEVICE_MAX_WORK_GROUP_SIZE
 * @param localMemory CL_DEVICE_LOCAL_MEM_SIZE in bytes
 * @param computeUnits CL_DEVICE_MAX_COMPUTE_UNITS
 * @param correctlyRoundedDivideSqrt whether float32 division and sqrt can be made correctly rounded
 * @param fma whether float32 fused multiply-add is done in hardware
 * @param maxParameterBytes CL_DEVICE_MAX_PARAMETER_SIZE: the bytes of arguments a kernel may take
 * @param int64Atomics whether the device reports cl_khr_int64_extended_atomics (64-bit atomic minimum)
 */
record DeviceInfo(cl_platform_id platform, cl_device_id device, int platformIndex, int deviceIndex,
                         String platformName, String deviceName, long type, String version, boolean fp64,
                         long maxAllocation, long globalMemory, long maxWorkGroupSize, long localMemory, int computeUnits,
                         boolean correctlyRoundedDivideSqrt, boolean fma, long maxParameterBytes, boolean int64Atomics) {

    /**
     * Reads a device's properties.
     *
     * @param platform its platform
     * @param device the device
     * @param platformIndex the platform's index
     * @param deviceIndex the device's index on the platform
     * @return the description
     */
    static DeviceInfo read(cl_platform_id platform, cl_device_id device, int platformIndex, int deviceIndex) {
        long singleConfig = deviceLong(device, CL.CL_DEVICE_SINGLE_FP_CONFIG);
        String extensions = deviceString(device, CL.CL_DEVICE_EXTENSIONS);
        return new DeviceInfo(platform, device, platformIndex, deviceIndex,
                platformString(platform, CL.CL_PLATFORM_NAME).trim(), deviceString(device, CL.CL_DEVICE_NAME).trim(),
                deviceLong(device, CL.CL_DEVICE_TYPE), deviceString(device, CL.CL_DEVICE_VERSION).trim(),
                extensions.contains("cl_khr_fp64"), deviceLong(device, CL.CL_DEVICE_MAX_MEM_ALLOC_SIZE),
                deviceLong(device, CL.CL_DEVICE_GLOBAL_MEM_SIZE),
                deviceSize(device, CL.CL_DEVICE_MAX_WORK_GROUP_SIZE), deviceLong(device, CL.CL_DEVICE_LOCAL_MEM_SIZE),
                (int) deviceInt(device, CL.CL_DEVICE_MAX_COMPUTE_UNITS),
                (singleConfig & CL.CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0, (singleConfig & CL.CL_FP_FMA) != 0,
                deviceSize(device, CL.CL_DEVICE_MAX_PARAMETER_SIZE), extensions.contains("cl_khr_int64_extended_atomics"));
    }

    /** @return this device as if it had no float64 (to test how a device without cl_khr_fp64 is served) */
    DeviceInfo withoutFloat64() {
        return new DeviceInfo(platform, device, platformIndex, deviceIndex, platformName, deviceName, type, version, false,
                maxAllocation, globalMemory, maxWorkGroupSize, localMemory, computeUnits, correctlyRoundedDivideSqrt, fma,
                maxParameterBytes, int64Atomics);
    }

    /** @return whether this is a GPU or an accelerator (preferred, and given the higher priority) */
    public boolean isGpuOrAccelerator() {
        return (type & (CL.CL_DEVICE_TYPE_GPU | CL.CL_DEVICE_TYPE_ACCELERATOR)) != 0;
    }

    /** @return "GPU", "accelerator", "CPU" or "device" */
    public String kind() {
        if ((type & CL.CL_DEVICE_TYPE_GPU) != 0) {
            return "GPU";
        }
        if ((type & CL.CL_DEVICE_TYPE_ACCELERATOR) != 0) {
            return "accelerator";
        }
        return (type & CL.CL_DEVICE_TYPE_CPU) != 0 ? "CPU" : "device";
    }

    /** @return one line naming the device: {@code "NVIDIA H200 (GPU, platform 0:0 NVIDIA CUDA, OpenCL 3.0, fp64, 143166 MiB, 35791 MiB per buffer)"} */
    public String describe() {
        return deviceName + " (" + kind() + ", platform " + platformIndex + ":" + deviceIndex + " " + platformName + ", "
                + version + (fp64 ? ", fp64" : ", no fp64") + ", " + (globalMemory >> 20) + " MiB, " + (maxAllocation >> 20)
                + " MiB per buffer)";
    }

    /**
     * @param text a name fragment
     * @return whether the platform's or the device's name contains it, ignoring case
     */
    boolean matches(String text) {
        String wanted = text.toLowerCase(Locale.ROOT);
        return platformName.toLowerCase(Locale.ROOT).contains(wanted) || deviceName.toLowerCase(Locale.ROOT).contains(wanted);
    }

    static String platformString(cl_platform_id platform, int parameter) {
        long[] size = new long[1];
        ClErrors.check(CL.clGetPlatformInfo(platform, parameter, 0, null, size), "clGetPlatformInfo");
        byte[] bytes = new byte[(int) size[0]];
        ClErrors.check(CL.clGetPlatformInfo(platform, parameter, bytes.length, Pointer.to(bytes), null), "clGetPlatformInfo");
        return text(bytes);
    }

    private static String deviceString(cl_device_id device, int parameter) {
        long[] size = new long[1];
        ClErrors.check(CL.clGetDeviceInfo(device, parameter, 0, null, size), "clGetDeviceInfo");
        byte[] bytes = new byte[(int) size[0]];
        ClErrors.check(CL.clGetDeviceInfo(device, parameter, bytes.length, Pointer.to(bytes), null), "clGetDeviceInfo");
        return text(bytes);
    }

    /** cl_ulong and cl_bitfield parameters. */
    private static long deviceLong(cl_device_id device, int parameter) {
        long[] value = new long[1];
        ClErrors.check(CL.clGetDeviceInfo(device, parameter, Long.BYTES, Pointer.to(value), null), "clGetDeviceInfo");
        return value[0];
    }

    /** cl_uint parameters. */
    private static long deviceInt(cl_device_id device, int parameter) {
        int[] value = new int[1];
        ClErrors.check(CL.clGetDeviceInfo(device, parameter, Integer.BYTES, Pointer.to(value), null), "clGetDeviceInfo");
        return Integer.toUnsignedLong(value[0]);
    }

    /** size_t parameters: read through a buffer of the reported width (4 or 8 bytes). */
    private static long deviceSize(cl_device_id device, int parameter) {
        long[] width = new long[1];
        ClErrors.check(CL.clGetDeviceInfo(device, parameter, 0, null, width), "clGetDeviceInfo");
        ByteBuffer buffer = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
        ClErrors.check(CL.clGetDeviceInfo(device, parameter, width[0], Pointer.to(buffer), null), "clGetDeviceInfo");
        return width[0] == 4 ? Integer.toUnsignedLong(buffer.getInt(0)) : buffer.getLong(0);
    }

    private static String text(byte[] bytes) {
        int length = bytes.length;
        while (length > 0 && bytes[length - 1] == 0) {
            length--;
        }
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }
}
