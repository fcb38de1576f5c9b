package io.kraft.storage.record;

import io.kraft.storage.errors.ApiException;
import io.kraft.storage.errors.Errors;

/**
 * A compressed batch decodes to more bytes than the reader allows (a compression bomb, or a batch far beyond
 * {@code max.message.bytes} once inflated); decoding stopped at the limit. Answered as RECORD_TOO_LARGE.
 */
public class DecompressionLimitException extends ApiException {
    public DecompressionLimitException(String message) {
        super(Errors.MESSAGE_TOO_LARGE, message);
    }
}
