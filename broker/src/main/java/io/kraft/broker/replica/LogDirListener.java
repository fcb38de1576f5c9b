package io.kraft.broker.replica;

import java.nio.file.Path;

/** Hears this broker's log directories going offline. */
public interface LogDirListener {
    /** Listens to nothing. */
    LogDirListener NONE = new LogDirListener() {
        @Override
        public void logDirOffline(Path dir) {
        }

        @Override
        public void allLogDirsOffline(String reason) {
        }
    };

    /** A directory went offline and others remain: report it to the controller now. */
    void logDirOffline(Path dir);

    /** Every directory is offline: the broker can serve nothing and must stop. */
    void allLogDirsOffline(String reason);
}
