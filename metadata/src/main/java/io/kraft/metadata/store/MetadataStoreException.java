package io.kraft.metadata.store;

/** The metadata state store could not be opened, read, written or checkpointed. */
public final class MetadataStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MetadataStoreException(String message, Throwable cause) {
        super(message, cause);
    }

    public MetadataStoreException(String message) {
        super(message);
    }
}
