package dev.ein4j.spark;

import java.io.IOException;

/**
 * A worker lost a peer of its ring: the peer closed its connection (it failed or was stopped), sent
 * nothing for the communication timeout, or the barrier rendezvous failed. A consequence of another
 * worker's failure more often than a failure of its own, so the driver reports the other one first.
 */
final class PeerLostException extends IOException {

    private static final long serialVersionUID = 1L;

    /** @param message what was lost, and where */
    PeerLostException(String message) {
        super(message);
    }

    /**
     * @param message what was lost, and where
     * @param cause the lower-level failure
     */
    PeerLostException(String message, Throwable cause) {
        super(message, cause);
    }
}
