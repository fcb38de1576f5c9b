/**
 * The multi-JVM harness: {@link io.kraft.systest.ProcessRegistry} launches real JVMs from the built
 * distribution ({@link io.kraft.systest.Distribution}) as described by a {@link io.kraft.systest.JvmSpec},
 * with configs from {@link io.kraft.systest.NodeConfigFile} on {@link io.kraft.systest.FreePorts}; each
 * {@link io.kraft.systest.JvmProcess} logs to target/systest-logs and can be stopped, killed, paused and
 * resumed. Everything a test starts ends with the test.
 */
package io.kraft.systest;
