package dev.ein4j.opencl;

import dev.ein4j.error.EinopsException;
import org.jocl.CL;
import org.jocl.CLException;

/**
 * Turns OpenCL status codes into the library's exceptions. JOCL reports failures as return codes
 * (or, when some other code has called {@code CL.setExceptionsEnabled(true)}, as {@link CLException});
 * both end up here so that a caller only ever sees an {@link EinopsException} naming the call and
 * the error ({@code CL_OUT_OF_RESOURCES}, ...).
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
     * @param status a failed status
     * @param what the call
     * @return the exception to throw
     */
    static EinopsException failure(int status, String what) {
        return new EinopsException("opencl backend: " + what + " failed with " + CL.stringFor_errorCode(status)
                + " (" + status + ")");
    }

    /**
     * @param exception what JOCL threw when its exceptions are enabled
     * @param what the operation
     * @return the library's exception for it
     */
    static EinopsException translate(CLException exception, String what) {
        return new EinopsException("opencl backend: " + what + " failed with " + CL.stringFor_errorCode(exception.getStatus())
                + " (" + exception.getStatus() + ")", exception);
    }
}
