package io.kraft.storage;

/**
 * How the previous run left a directory, as its owner finds it on opening: what a start-up line tells the operator.
 */
public enum PreviousShutdown {
    /** No earlier run: the directory is new (freshly formatted) and holds nothing to load. */
    NONE,
    /** The previous run closed it cleanly: nothing had to be recovered. */
    CLEAN,
    /** The previous run ended without closing it (a crash, kill -9, power loss): its files were checked. */
    UNCLEAN;

    /**
     * The same of a node with several directories: unclean if any was, new only if all were (a directory added to a
     * node that ran before does not make the node new).
     */
    public PreviousShutdown and(PreviousShutdown other) {
        return ordinal() >= other.ordinal() ? this : other;
    }

    /** How a start after such a shutdown is described, e.g. "restarted after a clean shutdown". */
    public String startDescription() {
        return switch (this) {
            case NONE -> "first start";
            case CLEAN -> "restarted after a clean shutdown";
            case UNCLEAN -> "recovered after an unclean shutdown";
        };
    }
}
