package io.kraft.metadata.store;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.jar.JarEntry;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads RocksDB's native library from a per-user, per-build cache directory, unpacking it from the jar only the
 * first time: rocksdbjni's own loader writes its 15 MB library to a new temporary file on every start. Any problem
 * with the cache falls back to rocksdbjni's loader.
 */
final class RocksDbNativeLibrary {
    /** Overrides where the library is cached (default: {@code <java.io.tmpdir>/kraft-<user>-native}). */
    static final String CACHE_DIR_PROPERTY = "kraft.native.cache.dir";
    private static final Logger LOG = LoggerFactory.getLogger(RocksDbNativeLibrary.class);

    private RocksDbNativeLibrary() {
    }

    /** Loads the library once per JVM; later calls return at once. */
    static synchronized void load() {
        try {
            Path cached = cached();
            if (cached != null) {
                RocksDB.loadLibrary(List.of(cached.getParent().toString()));
                return;
            }
        } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
            LOG.info("RocksDB's native library is loaded without the cache: {}", e.toString());
        }
        RocksDB.loadLibrary();
    }

    /** The library's path in the cache, unpacked there if missing; null when the jar entry cannot be identified. */
    private static Path cached() throws IOException {
        URL resource = RocksDB.class.getResource("/" + Environment.getJniLibraryFileName("rocksdb"));
        if (resource == null) {
            return null;
        }
        URLConnection connection = resource.openConnection();
        if (!(connection instanceof JarURLConnection jar)) {
            return null;
        }
        // The entry's CRC and size name the build, so a new rocksdbjni never loads an older cached library.
        JarEntry entry = jar.getJarEntry();
        Path dir = cacheRoot().resolve("rocksdbjni-" + Long.toHexString(entry.getCrc()) + "-" + entry.getSize());
        // The name RocksDB.loadLibrary(paths) looks for, which differs from the jar entry's ("...jnijni-...").
        String fileName = Environment.getJniLibraryFileName("rocksdbjni");
        Path library = dir.resolve(fileName);
        if (Files.isRegularFile(library) && Files.size(library) == entry.getSize()) {
            return library;
        }
        Files.createDirectories(dir);
        Path partial = Files.createTempFile(dir, fileName, ".partial");
        try (InputStream in = connection.getInputStream()) {
            Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
            // Another JVM may have unpacked the same bytes meanwhile: replacing them atomically is harmless.
            Files.move(partial, library, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(partial);
        }
        LOG.info("Unpacked RocksDB's native library to {}", library);
        return library;
    }

    /** The user's own directory, readable and writable by that user only, so nobody else can swap the library. */
    private static Path cacheRoot() throws IOException {
        String configured = System.getProperty(CACHE_DIR_PROPERTY);
        Path root = configured != null ? Path.of(configured)
                : Path.of(System.getProperty("java.io.tmpdir"), "kraft-" + System.getProperty("user.name") + "-native");
        if (!Files.isDirectory(root)) {
            try {
                Files.createDirectory(root, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
            } catch (FileAlreadyExistsException raced) {
                // another JVM created it
            } catch (UnsupportedOperationException notPosix) {
                Files.createDirectories(root);
            }
        }
        if (!Files.getOwner(root).getName().equals(System.getProperty("user.name"))) {
            throw new IOException(root + " belongs to " + Files.getOwner(root).getName());
        }
        return root;
    }
}
