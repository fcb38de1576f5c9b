/** Crash-safe file steps shared by every module that keeps state on disk (storage, raft, broker). */
package io.kraft.storage.io;
