package twoclocks.ci;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.BoltConnectorInternalSettings;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;

/**
 * The test Neo4j: an embedded Neo4j community DBMS that serves Bolt on 127.0.0.1:PORT
 * (no auth, no TLS, no HTTP) with DATA_DIR as its home, until SIGTERM.
 *
 * <p>Usage: {@code java -cp target/classes:target/lib/* twoclocks.ci.Launcher DATA_DIR PORT
 * [OWNER_PID]}. Prints {@code READY bolt://127.0.0.1:PORT} once the default database answers.
 * With OWNER_PID it also shuts down once that process is gone (a test run killed with -9
 * leaves no server behind).
 */
public final class Launcher {
    private static final String HOST = "127.0.0.1";

    private Launcher() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: Launcher DATA_DIR PORT [OWNER_PID]");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        int port = Integer.parseInt(args[1]);
        Files.createDirectories(home);

        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress(HOST, port))
                .setConfig(BoltConnector.advertised_address, new SocketAddress(HOST, port))
                .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                .setConfig(BoltConnector.server_bolt_telemetry_enabled, false)
                // Bolt otherwise waits 2 x 5 s for idle connections and threads at shutdown.
                .setConfig(BoltConnectorInternalSettings.connection_shutdown_wait_time, Duration.ofSeconds(1))
                .setConfig(BoltConnectorInternalSettings.thread_pool_shutdown_wait_time, Duration.ofSeconds(1))
                .setConfig(HttpConnector.enabled, false)
                .setConfig(HttpsConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, false)
                .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(128))
                // Light and self-contained: no usage reports, no routing listener on the
                // fixed port 7688 (two servers would clash), no file watcher or warm-up,
                // no preallocated transaction logs or store files.
                .setConfig(GraphDatabaseSettings.udc_enabled, false)
                .setConfig(GraphDatabaseSettings.routing_enabled, false)
                .setConfig(GraphDatabaseSettings.filewatcher_enabled, false)
                .setConfig(GraphDatabaseSettings.pagecache_warmup_enabled, false)
                .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
                .setConfig(GraphDatabaseSettings.preallocate_store_files, false)
                .build();

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                dbms.shutdown();
            } finally {
                stopped.countDown();
            }
        }, "neo4j-shutdown"));

        if (args.length == 3) {
            long owner = Long.parseLong(args[2]);
            ProcessHandle.of(owner).ifPresentOrElse(
                    h -> h.onExit().thenRun(() -> {
                        System.err.println("owner process " + owner + " is gone; shutting down");
                        System.exit(0);
                    }),
                    () -> {
                        System.err.println("owner process " + owner + " is not running");
                        System.exit(1);
                    });
        }

        GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
        if (!db.isAvailable(60_000)) {
            System.err.println("default database did not become available within 60 s");
            System.exit(1);
        }
        System.out.println("READY bolt://" + HOST + ":" + port);
        System.out.flush();
        stopped.await();
    }
}
