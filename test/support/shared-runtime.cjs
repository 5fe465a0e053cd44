// Jest's module runtime (jest.config.ts's `runtime`), with one change: a package of node_modules
// is loaded once per worker, by Node itself, and shared by every test file that worker runs,
// instead of once per test file into that file's module registry. Loading the service's packages
// (Fastify, Prisma's runtime, graphql and its tools, Pothos, Yoga, zod, pg, OpenTelemetry: about
// 1,500 modules) again for each file was most of a small test file's CPU. Our own modules (src/,
// test/) still load per file, into the file's own context: each file has its own service code, its
// own clock (`jest.spyOn(Date, 'now')` reaches our code, which reads the file's Date) and its own
// mocks. What a shared package keeps at module level (Pothos's registered plugins, OpenFeature's
// registry) is shared by the files of a worker, as it is by the services one file starts; a
// package's objects are of Node's own realm, as Node's built-in modules' already are under Jest
// (an error a package throws is not `instanceof` the file's Error).
const { pathToFileURL } = require('node:url');
const vm = require('node:vm');
const { default: Runtime } = require('jest-runtime');

// Loaded per file as before, where the file's own realm matters: jose reads the clock a test
// moves with Jest's fake timers (the file's Date), and prom-client's default registry counts the
// file's own services.
const PER_FILE = ['jose', 'prom-client'];
const NODE_MODULES = new RegExp(`[\\\\/]node_modules[\\\\/](?!(${PER_FILE.join('|')})[\\\\/])`);

// A shared package checks what our code hands it (an error thrown, a date) with `instanceof` against
// Node's realm; the file's objects are of the file's realm. Here, in this worker's realm, an Error,
// a Date or an Array of any realm is one (as Array.isArray already answers): graphql's located
// errors, p-retry and Yoga take our errors for errors, Prisma and pg our dates for dates. The
// classes built on them (TypeError, a package's own errors) keep their own checks.
for (const [type, tag] of [
  [Error, '[object Error]'],
  [Date, '[object Date]'],
  [Array, '[object Array]'],
])
  Object.defineProperty(type, Symbol.hasInstance, {
    value(value) {
      return Function.prototype[Symbol.hasInstance].call(this, value) || (this === type && Object.prototype.toString.call(value) === tag);
    },
  });

/** Packages whose ESM build is loaded through Node's own loader, by path: each once per worker. */
const namespaces = new Map();

class SharedPackagesRuntime extends Runtime {
  requireModule(from, moduleName, options, isRequireActual) {
    if (!options?.isInternalModule && moduleName && !this._resolver.isCoreModule(moduleName)) {
      const modulePath = this._resolveCjsModule(from, moduleName);
      if (NODE_MODULES.test(modulePath) && !this.unstable_shouldLoadAsEsm(modulePath)) return require(modulePath);
    }
    return super.requireModule(from, moduleName, options, isRequireActual);
  }

  async loadEsmModule(modulePath, query = '') {
    if (query || !NODE_MODULES.test(modulePath) || !/\.[cm]?js$/.test(modulePath)) return super.loadEsmModule(modulePath, query);
    const registry = this._isolatedModuleRegistry ?? this._esmoduleRegistry;
    let module = registry.get(modulePath);
    if (!module) {
      // Set before any await: two imports of one package in a file get the same module.
      module = (async () => {
        let namespace = namespaces.get(modulePath);
        if (!namespace) {
          namespace = import(pathToFileURL(modulePath).href);
          namespaces.set(modulePath, namespace);
        }
        const exports = await namespace;
        const names = Object.keys(exports);
        const synthetic = new vm.SyntheticModule(
          names,
          function () {
            for (const name of names) this.setExport(name, exports[name]);
          },
          { context: this._environment.getVmContext(), identifier: modulePath },
        );
        await synthetic.link(() => {
          throw new Error(`${modulePath} imports nothing through Jest`);
        });
        await synthetic.evaluate();
        return synthetic;
      })();
      registry.set(modulePath, module);
    }
    return module;
  }
}

module.exports = SharedPackagesRuntime;
