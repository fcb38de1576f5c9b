package io.kraft.broker.protocol.codec;

/**
 * Record data that a RECORDS field refers to without holding its bytes, e.g. a region of a log
 * segment file. The writer counts its size and writes its length prefix but not its bytes; it hands
 * it to a {@link RecordsSink} with its position, so the transport can send it straight from the file
 * (zero copy) between the surrounding bytes.
 */
public interface ExternalRecords {
    /** Exact number of bytes the records take on the wire. */
    int sizeInBytes();
}
