import Fastify from 'fastify';
const bare = Fastify();
bare.post('/v1/iban/validate', async () => ({ iban: 'DE89370400440532013000', valid: true }));
await bare.listen({ port: 4100 });
