package io.kraft.broker.protocol.codec;

/**
 * Receives the {@link ExternalRecords} met while writing a message, in wire order. The complete
 * message is the output buffer's bytes with each records value spliced in at the offset given.
 */
@FunctionalInterface
public interface RecordsSink {
    /**
     * @param outputOffset position in the output buffer at which the records' bytes belong
     *                     (after their length prefix, before whatever the writer wrote next)
     */
    void records(int outputOffset, ExternalRecords records);
}
