package io.kraft.storage.log.producer;

import io.kraft.storage.errors.Errors;

/**
 * One append mixes batches already written (retries) with new ones, so it can be neither skipped
 * nor written as a whole. Producers send one batch per partition per request, so only a malformed
 * request gets here. Kafka: DUPLICATE_SEQUENCE_NUMBER.
 */
public class DuplicateSequenceException extends ProducerStateException {
    public DuplicateSequenceException(long producerId, String message) {
        super(Errors.DUPLICATE_SEQUENCE_NUMBER, producerId, message);
    }
}
