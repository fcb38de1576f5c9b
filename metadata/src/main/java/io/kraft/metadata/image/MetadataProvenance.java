package io.kraft.metadata.image;

/** The metadata log position an image reflects: the offset of its last record and that record's epoch. */
public record MetadataProvenance(long offset, int epoch) {
    /** An image built from no record at all. */
    public static final MetadataProvenance EMPTY = new MetadataProvenance(-1L, -1);
}
