package io.kraft.cli.shell;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code metadata-shell --dump-log}: every committed entry of a stopped node's metadata log, one line each
 * ({@link RecordFormatter}), from the log's start; what the snapshot before it holds is not repeated.
 */
public final class MetadataLogDump {
    private MetadataLogDump() {
    }

    /**
     * Prints the entries to {@code out} and returns the notes for the user (snapshot, commit point, torn tail).
     *
     * @throws MetadataShellException if the node is running or the directory holds no readable metadata log
     */
    public static List<String> print(Path metadataLogDir, PrintWriter out) {
        MetadataLoader.CommittedLog log = MetadataLoader.CommittedLog.open(metadataLogDir);
        List<String> notes = new ArrayList<>(log.notes());
        log.reader().startSnapshot().ifPresent(snapshot -> notes.add("the log starts at offset "
                + snapshot.endOffset() + ": snapshot " + snapshot + " holds what came before"));
        log.forEachCommitted(log.reader().startOffset(), entry -> out.println(RecordFormatter.format(entry)));
        out.flush();
        notes.addAll(log.tailNotes());
        return notes;
    }
}
