import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.util.List;

/** mongo-java-server's in-memory backend on 127.0.0.1:PORT, for the bench only (no durability). */
public class MemoryMongo {
  public static void main(String[] args) throws Exception {
    MemoryBackend backend = new MemoryBackend();
    // The Node driver refuses servers below wire version 9; the library reports 8 by default.
    backend.version(new MongoVersion() {
      public List<Integer> getVersionArray() { return List.of(6, 0, 0); }
      public int getWireVersion() { return 17; }
    });
    new MongoServer(backend).bind("127.0.0.1", Integer.parseInt(args[0]));
    System.out.println("memory-mongo up on 127.0.0.1:" + args[0]);
    Thread.currentThread().join();
  }
}
