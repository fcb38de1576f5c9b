package io.kraft.raft;

/** Durable home of a node's {@link QuorumState}; {@link #write} returns only when the state survives a crash. */
public interface QuorumStateStore {

    /** The last written state, or {@link QuorumState#INITIAL} if none was ever written. */
    QuorumState read();

    /** Replaces the stored state atomically and durably. */
    void write(QuorumState state);
}
