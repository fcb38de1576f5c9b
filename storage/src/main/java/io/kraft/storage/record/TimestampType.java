package io.kraft.storage.record;

/** Whose clock a batch's timestamps come from: the producer's (create time) or the broker's (log append time). */
public enum TimestampType {
    CREATE_TIME,
    /** The broker stamped the batch: every record's timestamp reads as the batch's max timestamp. */
    LOG_APPEND_TIME
}
