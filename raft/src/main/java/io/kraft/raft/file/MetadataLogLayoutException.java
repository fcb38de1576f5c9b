package io.kraft.raft.file;

/**
 * A metadata.log.dir holding metadata files both inside {@value MetadataLogDirectory#NAME} and outside it, as an
 * earlier version laid them out: only a person can tell which copy to keep, so nothing is moved or opened.
 */
public final class MetadataLogLayoutException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MetadataLogLayoutException(String message) {
        super(message);
    }
}
