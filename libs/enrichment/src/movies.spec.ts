import { expect } from 'chai';
import { detectMovie, MOVIE_GENRES, normalizeGenre } from './movies.js';
import { scoreSentiment } from './sentiment.js';

const movie = (content: string, userContext: string | null = null, watchedTitle = false) =>
  detectMovie({ content, userContext, watchedTitle, anyTitle: watchedTitle });

describe('movies and genres', () => {
  it('normalises genre phrases to one label', () => {
    expect(normalizeGenre('Sci Fi')).to.equal('sci-fi');
    expect(normalizeGenre('science fiction')).to.equal('sci-fi');
    expect(normalizeGenre('a rom-com')).to.equal('romance');
    expect(normalizeGenre('horror flicks')).to.equal('horror');
    expect(normalizeGenre('action movies')).to.equal('action');
    expect(normalizeGenre('scary')).to.equal(null);
    expect(MOVIE_GENRES).to.include.members(['horror', 'comedy', 'sci-fi', 'drama', 'documentary']);
  });

  it('reports a genre only for movie talk', () => {
    expect(movie('There was so much drama at work today.')).to.deep.include({ isMovie: false, genre: null });
    expect(movie('We watched a Korean drama.')).to.deep.include({ isMovie: true, genre: 'drama' });
    expect(movie('The movie was so scary.')).to.deep.include({ isMovie: true, genre: 'horror' });
    expect(movie('We watched a hilarious film.')).to.deep.include({ isMovie: true, genre: 'comedy' });
  });

  it('prefers a named genre to a cue word, and the content to the userContext', () => {
    expect(movie('The thriller we saw at the cinema was funny in places.').genre).to.equal('thriller');
    expect(movie('We watched a documentary.', 'sci-fi fan').genre).to.equal('documentary');
    expect(movie('We watched Dune', 'sci-fi fan', true)).to.deep.include({ isMovie: true, genre: 'sci-fi' });
  });

  it('takes a watched title as film talk unless TV words say it was a show', () => {
    expect(movie('We watched Arrival', null, true).isMovie).to.equal(true);
    expect(movie('We watched two episodes of Severance', null, true).isMovie).to.equal(false);
  });

  it('gives genre words used as genres to sentiment as neutral', () => {
    const result = movie('We watched a crime drama on Netflix.');
    expect(result.genre).to.equal('crime');
    expect(scoreSentiment('We watched a crime drama on Netflix.', new Set(result.genreWords)).label).to.equal('neutral');
    expect(scoreSentiment('We watched a crime drama on Netflix.', new Set()).label).to.equal('negative');
  });
});
