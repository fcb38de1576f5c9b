/**
 * An embedded kraft cluster for application tests: {@link io.kraft.testkit.KraftCluster} starts one or more nodes in
 * the test's JVM on free ports and temporary directories; {@link io.kraft.testkit.KraftClusterExtension} and
 * {@link io.kraft.testkit.KraftTest} give one to JUnit 5 tests.
 */
package io.kraft.testkit;
