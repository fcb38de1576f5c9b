package io.kraft.cli.shell;

import io.kraft.metadata.image.MetadataImage;
import java.util.List;
import java.util.Map;

/**
 * What {@link MetadataLoader} found: the image, facts about the node's Raft state for {@code /quorum} (empty for
 * a lone snapshot), and notes worth telling the user (a torn log tail, left-out entries, skipped snapshots).
 */
public record LoadedMetadata(MetadataImage image, Map<String, String> quorumFacts, List<String> notes) {
    public LoadedMetadata {
        quorumFacts = Map.copyOf(quorumFacts);
        notes = List.copyOf(notes);
    }

    /** The shell's tree of this metadata. */
    public MetadataTree tree() {
        return MetadataTree.of(image, quorumFacts);
    }
}
