package io.kraft.broker.group;

import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.function.Consumer;

/** Appends a group's records to its {@code __consumer_offsets} partition in a producer's transaction (TxnOffsetCommit). */
@FunctionalInterface
interface TransactionalRecordWriter {

    /** {@code done} gets NONE once the records are committed to the log (not yet to the group), else the error. */
    void write(ClassicGroup group, long producerId, short producerEpoch, List<CoordinatorRecord> records,
               Consumer<Errors> done);
}
