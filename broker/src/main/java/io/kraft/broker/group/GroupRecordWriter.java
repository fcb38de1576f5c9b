package io.kraft.broker.group;

import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.function.Consumer;

/** Appends a group's records to its {@code __consumer_offsets} partition and reports, on the owner thread, how it went. */
@FunctionalInterface
interface GroupRecordWriter {

    /** {@code done} gets NONE once the records are committed, else the error a client should see. */
    void write(ClassicGroup group, List<CoordinatorRecord> records, Consumer<Errors> done);
}
