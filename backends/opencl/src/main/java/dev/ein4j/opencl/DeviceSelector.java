package dev.ein4j.opencl;

import java.util.ArrayList;
import java.util.List;
import org.jocl.CL;
import org.jocl.cl_device_id;
import org.jocl.cl_platform_id;

/**
 * Lists the OpenCL devices and picks one: the device named by the system property
 * {@value #PROPERTY} or the environment variable {@value #ENVIRONMENT} ({@code platform:device}
 * indices, or a fragment of the platform's or the device's name), else the first GPU or
 * accelerator, else the first device of any kind. Never throws: a missing OpenCL library or
 * platform is a {@link Selection} without a device and with the reason.
 */
final class DeviceSelector {

    /** The system property that chooses the device. */
    static final String PROPERTY = "ein4j.opencl.device";
    /** The environment variable that chooses the device. */
    static final String ENVIRONMENT = "EIN4J_OPENCL_DEVICE";

    /**
     * The outcome of a selection.
     *
     * @param device the chosen device, or null
     * @param problem why none was chosen (null when one was)
     * @param all every device found, for messages
     */
    record Selection(DeviceInfo device, String problem, List<DeviceInfo> all) {
    }

    private DeviceSelector() {
    }

    /** @return the device chosen by the override, or the default choice */
    static Selection select() {
        String override = System.getProperty(PROPERTY);
        if (override == null || override.isBlank()) {
            override = System.getenv(ENVIRONMENT);
        }
        return select(override == null || override.isBlank() ? null : override.trim());
    }

    /**
     * @param override {@code platform:device}, a name fragment, or null for the default choice
     * @return the selection
     */
    static Selection select(String override) {
        List<DeviceInfo> devices;
        try {
            devices = listDevices();
        } catch (Throwable failure) { // no libOpenCL, no ICD, a broken driver: unavailable, not an error
            return new Selection(null, "OpenCL is not usable here: " + failure, List.of());
        }
        if (devices.isEmpty()) {
            return new Selection(null, "no OpenCL platform with a device was found", devices);
        }
        if (override != null) {
            for (DeviceInfo device : devices) {
                if (override.equals(device.platformIndex() + ":" + device.deviceIndex())) {
                    return new Selection(device, null, devices);
                }
            }
            for (DeviceInfo device : devices) {
                if (device.matches(override)) {
                    return new Selection(device, null, devices);
                }
            }
            return new Selection(null, PROPERTY + "/" + ENVIRONMENT + " '" + override + "' names no device; devices: "
                    + devices.stream().map(DeviceInfo::describe).toList(), devices);
        }
        for (DeviceInfo device : devices) {
            if (device.isGpuOrAccelerator()) {
                return new Selection(device, null, devices);
            }
        }
        return new Selection(devices.get(0), null, devices);
    }

    /** @return every device of every platform, platforms and devices in the order OpenCL lists them */
    static List<DeviceInfo> listDevices() {
        int[] count = new int[1];
        int status = CL.clGetPlatformIDs(0, null, count);
        if (status == CL.CL_PLATFORM_NOT_FOUND_KHR || count[0] == 0) {
            return List.of();
        }
        ClErrors.check(status, "clGetPlatformIDs");
        cl_platform_id[] platforms = new cl_platform_id[count[0]];
        ClErrors.check(CL.clGetPlatformIDs(platforms.length, platforms, null), "clGetPlatformIDs");
        List<DeviceInfo> devices = new ArrayList<>();
        for (int p = 0; p < platforms.length; p++) {
            int[] deviceCount = new int[1];
            int found = CL.clGetDeviceIDs(platforms[p], CL.CL_DEVICE_TYPE_ALL, 0, null, deviceCount);
            if (found == CL.CL_DEVICE_NOT_FOUND || deviceCount[0] == 0) {
                continue;
            }
            ClErrors.check(found, "clGetDeviceIDs");
            cl_device_id[] ids = new cl_device_id[deviceCount[0]];
            ClErrors.check(CL.clGetDeviceIDs(platforms[p], CL.CL_DEVICE_TYPE_ALL, ids.length, ids, null), "clGetDeviceIDs");
            for (int d = 0; d < ids.length; d++) {
                devices.add(DeviceInfo.read(platforms[p], ids[d], p, d));
            }
        }
        return devices;
    }
}
