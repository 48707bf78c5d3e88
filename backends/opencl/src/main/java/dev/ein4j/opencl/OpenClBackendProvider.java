package dev.ein4j.opencl;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.BackendProvider;
import dev.ein4j.error.EinopsException;

/**
 * Registers the OpenCL backend. Available when an OpenCL platform has a device (never throwing
 * otherwise: no library, no driver, no device all read as unavailable). Its priority depends on the
 * device chosen: {@value #GPU_PRIORITY} on a GPU or accelerator, above the {@code cpu} backend;
 * {@value #CPU_PRIORITY} on a CPU device such as PoCL, below {@code cpu} (10) and above
 * {@code reference} (0).
 */
public final class OpenClBackendProvider implements BackendProvider {

    /** Priority on a GPU or accelerator. */
    public static final int GPU_PRIORITY = 20;
    /** Priority on a CPU device. */
    public static final int CPU_PRIORITY = 5;

    private volatile DeviceSelector.Selection selection;

    @Override
    public String name() {
        return OpenClBackend.NAME;
    }

    @Override
    public int priority() {
        DeviceInfo device = selection().device();
        return device != null && device.isGpuOrAccelerator() ? GPU_PRIORITY : CPU_PRIORITY;
    }

    @Override
    public boolean isAvailable() {
        return selection().device() != null;
    }

    @Override
    public Backend create() {
        DeviceSelector.Selection chosen = selection();
        if (chosen.device() == null) {
            throw new EinopsException("opencl backend: " + chosen.problem());
        }
        return new OpenClBackend(chosen.device());
    }

    /** The device is chosen once per provider: listing devices initialises drivers, which is slow. */
    private DeviceSelector.Selection selection() {
        DeviceSelector.Selection chosen = selection;
        if (chosen == null) {
            synchronized (this) {
                if (selection == null) {
                    selection = DeviceSelector.select();
                }
                chosen = selection;
            }
        }
        return chosen;
    }
}
