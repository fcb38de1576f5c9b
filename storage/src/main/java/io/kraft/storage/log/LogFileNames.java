package io.kraft.storage.log;

import io.kraft.storage.io.DurableFiles;
import java.nio.file.Path;
import java.util.OptionalLong;

/** File names of a partition directory: segments named by their 20-digit base offset, plus swap suffixes. */
public final class LogFileNames {
    public static final String LOG_SUFFIX = ".log";
    public static final String INDEX_SUFFIX = ".index";
    public static final String TIME_INDEX_SUFFIX = ".timeindex";
    /** The aborted-transaction index of a segment (present only once it holds an entry). */
    public static final String TXN_INDEX_SUFFIX = ".txnindex";
    /** A segment removed from the log, kept readable until its delete delay passes. */
    public static final String DELETED_SUFFIX = ".deleted";
    /** A segment the cleaner is still writing; discarded on open. */
    public static final String CLEANED_SUFFIX = ".cleaned";
    /** A complete replacement segment whose swap-in was interrupted; completed on open. */
    public static final String SWAP_SUFFIX = ".swap";
    /** A checkpoint or snapshot being written ({@link DurableFiles#writeAtomically}); removed on open. */
    public static final String TEMP_SUFFIX = DurableFiles.TEMP_SUFFIX;

    private LogFileNames() {
    }

    public static String baseName(long baseOffset) {
        return String.format("%020d", baseOffset);
    }

    public static Path logFile(Path dir, long baseOffset, String extraSuffix) {
        return dir.resolve(baseName(baseOffset) + LOG_SUFFIX + extraSuffix);
    }

    public static Path offsetIndexFile(Path dir, long baseOffset, String extraSuffix) {
        return dir.resolve(baseName(baseOffset) + INDEX_SUFFIX + extraSuffix);
    }

    public static Path timeIndexFile(Path dir, long baseOffset, String extraSuffix) {
        return dir.resolve(baseName(baseOffset) + TIME_INDEX_SUFFIX + extraSuffix);
    }

    public static Path txnIndexFile(Path dir, long baseOffset, String extraSuffix) {
        return dir.resolve(baseName(baseOffset) + TXN_INDEX_SUFFIX + extraSuffix);
    }

    /** The base offset of a segment file name such as {@code 00000000000000000042.log}, if it is one. */
    public static OptionalLong baseOffsetOf(String fileName, String suffix) {
        if (!fileName.endsWith(suffix) || fileName.length() != 20 + suffix.length()) {
            return OptionalLong.empty();
        }
        String digits = fileName.substring(0, 20);
        for (int i = 0; i < 20; i++) {
            if (!Character.isDigit(digits.charAt(i))) {
                return OptionalLong.empty();
            }
        }
        try {
            return OptionalLong.of(Long.parseLong(digits));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * {@code file} with its name's ending {@code oldSuffix} replaced by {@code newSuffix} ("" for none), as a segment's
     * files are renamed from one state to the next ({@code .cleaned} to {@code .swap}, none to {@code .deleted}).
     *
     * @throws IllegalArgumentException if the name does not end with {@code oldSuffix}
     */
    public static Path withSuffixReplaced(Path file, String oldSuffix, String newSuffix) {
        String name = file.getFileName().toString();
        if (!name.endsWith(oldSuffix)) {
            throw new IllegalArgumentException("file " + file + " does not end with '" + oldSuffix + "'");
        }
        return file.resolveSibling(name.substring(0, name.length() - oldSuffix.length()) + newSuffix);
    }
}
