package io.kraft.storage.cleaner;

/**
 * What one cleaning pass of a log did. {@code nextDirtyOffset} is where the next pass's dirty section
 * starts (checkpoint it); the rest are counts for logs and metrics ({@code recordsRemoved} includes the
 * tombstones, the records of aborted transactions and the transaction markers removed).
 */
public record CleanResult(
        long nextDirtyOffset,
        int segmentsCleaned,
        long bytesRead,
        long bytesWritten,
        long recordsRead,
        long recordsRemoved,
        long tombstonesRemoved,
        long abortedRecordsRemoved,
        long markersRemoved) {

    static CleanResult nothing(long dirtyOffset) {
        return new CleanResult(dirtyOffset, 0, 0, 0, 0, 0, 0, 0, 0);
    }
}
