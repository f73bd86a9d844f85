// The cloud relay arrives with the REST API issue; until then `npm start` says so.
console.log('printwire-cloud: the cloud relay is not built yet; see the README for what is.');
