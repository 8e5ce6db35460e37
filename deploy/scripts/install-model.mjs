console.log('model install: placeholder until embedder lands')
