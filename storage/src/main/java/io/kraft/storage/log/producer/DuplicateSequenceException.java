package io.kraft.storage.log.producer;

/**
 * One append mixes batches already written (retries) with new ones, so it can be neither skipped
 * nor written as a whole. Producers send one batch per partition per request, so only a malformed
 * request gets here. Kafka: DUPLICATE_SEQUENCE_NUMBER.
 */
public class DuplicateSequenceException extends ProducerStateException {
    public DuplicateSequenceException(long producerId, String message) {
        super(producerId, message);
    }
}
