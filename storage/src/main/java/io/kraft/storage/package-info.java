/** Partition log: record batch v2, segments, indexes, recovery, retention, compaction. */
package io.kraft.storage;
