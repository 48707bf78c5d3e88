package dev.ein4j.opencl;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ResourceException;
import org.jocl.CL;
import org.jocl.CLException;

/**
 * Turns OpenCL status codes into the library's exceptions. JOCL reports failures as return codes
 * (or, when some other code has called {@code CL.setExceptionsEnabled(true)}, as {@link CLException});
 * both end up here so that a caller only ever sees an {@link EinopsException} naming the call and
 * the error ({@code CL_INVALID_KERNEL_ARGS}, ...), a {@link ResourceException} when the device ran
 * out of memory or resources.
 */
final class ClErrors {

    private ClErrors() {
    }

    /**
     * @param status a status returned by an OpenCL call
     * @param what the call, for the message
     * @throws EinopsException unless the status is {@code CL_SUCCESS}
     */
    static void check(int status, String what) {
        if (status != CL.CL_SUCCESS) {
            throw failure(status, what);
        }
    }

    /**
     * @param status a status
     * @return whether it says the device has no room: CL_MEM_OBJECT_ALLOCATION_FAILURE,
     *     CL_OUT_OF_RESOURCES or CL_OUT_OF_HOST_MEMORY (an allocation may fail at creation or, on
     *     drivers that allocate lazily, at its first use)
     */
    static boolean isOutOfMemory(int status) {
        return status == CL.CL_MEM_OBJECT_ALLOCATION_FAILURE || status == CL.CL_OUT_OF_RESOURCES
                || status == CL.CL_OUT_OF_HOST_MEMORY;
    }

    /**
     * @param status a failed status
     * @param what the call
     * @return the exception to throw
     */
    static EinopsException failure(int status, String what) {
        String message = "opencl backend: " + what + " failed with " + CL.stringFor_errorCode(status) + " (" + status + ")";
        return isOutOfMemory(status) ? new ResourceException(message + ": the device is out of memory") : new EinopsException(message);
    }

    /**
     * @param exception what JOCL threw when its exceptions are enabled
     * @param what the operation
     * @return the library's exception for it
     */
    static EinopsException translate(CLException exception, String what) {
        String message = "opencl backend: " + what + " failed with " + CL.stringFor_errorCode(exception.getStatus())
                + " (" + exception.getStatus() + ")";
        return isOutOfMemory(exception.getStatus()) ? new ResourceException(message + ": the device is out of memory", exception)
                : new EinopsException(message, exception);
    }
}
