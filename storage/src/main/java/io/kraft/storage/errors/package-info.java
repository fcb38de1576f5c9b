/** Kafka's error codes ({@link io.kraft.storage.errors.Errors}) and the exception base that carries one. */
package io.kraft.storage.errors;
